-- The fee rate a trade's makers paid: 0 on a taker-only schedule. `maker_orders[].fee_rate_bps` showed
-- the taker's rate, so a market maker reconciling its fills from /data/trades charged itself a fee it
-- never paid (found by an audit). Earlier trades take their market's schedule as it is now.
-- AlterTable
ALTER TABLE "trades" ADD COLUMN "maker_fee_rate_bps" INTEGER;
UPDATE "trades" t SET "maker_fee_rate_bps" = CASE WHEN m."fee_taker_only" THEN 0 ELSE t."fee_rate_bps" END
  FROM "markets" m WHERE m."condition_id" = t."condition_id";
UPDATE "trades" SET "maker_fee_rate_bps" = "fee_rate_bps" WHERE "maker_fee_rate_bps" IS NULL;
ALTER TABLE "trades" ALTER COLUMN "maker_fee_rate_bps" SET NOT NULL;
