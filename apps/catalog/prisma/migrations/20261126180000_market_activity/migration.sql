-- Volume and liquidity of each market as market-data measures them (docs/catalog.md, section
-- Volume and liquidity), and of each event as the sums over its markets.
ALTER TABLE "markets" ADD COLUMN "volume" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "markets" ADD COLUMN "liquidity" BIGINT NOT NULL DEFAULT 0;
