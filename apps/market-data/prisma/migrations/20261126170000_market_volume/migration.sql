-- Volume per market (docs/market-data.md, "Activity"): each price-history row carries the collateral of its trade,
-- and market_volume sums the rows as they are first written.
-- Rows written before this version have no notional (NULL): the price-history refill, requested below
-- when there are such rows, reads them again from order-matching and fills them in, counting them then.
ALTER TABLE "price_history" ADD COLUMN "notional" BIGINT;

CREATE TABLE "market_volume" (
    "condition_id" TEXT NOT NULL,
    "volume" BIGINT NOT NULL,

    CONSTRAINT "market_volume_pkey" PRIMARY KEY ("condition_id")
);

INSERT INTO "stream_snapshots" ("name", "stream_seq", "state")
SELECT 'price-backfill', 1, '{"after":null}'::jsonb
WHERE EXISTS (SELECT 1 FROM "price_history")
ON CONFLICT ("name") DO NOTHING;
