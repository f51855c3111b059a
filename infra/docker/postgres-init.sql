-- Run once by the postgres image, on the first start with an empty data volume
-- (mounted into /docker-entrypoint-initdb.d by the root docker-compose.yml).
-- One database per service; add a line when an app with its own database is added.
CREATE DATABASE exchange_catalog;
CREATE DATABASE exchange_gateway;
CREATE DATABASE exchange_matching;
CREATE DATABASE exchange_marketdata;
