DROP INDEX "orders_owner_status_idx";
DROP INDEX "orders_maker_idx";
DROP INDEX "orders_status_idx";
CREATE INDEX "orders_live_owner_idx" ON "orders" ("owner") WHERE "status" = 'LIVE';
CREATE INDEX "orders_live_maker_idx" ON "orders" ("maker") WHERE "status" = 'LIVE';
CREATE INDEX "orders_live_seq_idx" ON "orders" ("seq") WHERE "status" = 'LIVE';
