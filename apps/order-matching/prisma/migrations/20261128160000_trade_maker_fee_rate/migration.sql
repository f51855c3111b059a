-- The fee rate a trade's makers paid: 0 on a taker-only schedule. `maker_orders[].fee_rate_bps` showed
-- the taker's rate, so a market maker reconciling its fills from /data/trades charged itself a fee it
-- never paid (found by an audit). Earlier trades take their market's schedule as it is now. The column
-- comes with a default (no rewrite of the table), and only the trades of markets whose makers pay are
-- updated (the journal writes every new trade's rate itself).
-- AlterTable
ALTER TABLE "trades" ADD COLUMN "maker_fee_rate_bps" INTEGER NOT NULL DEFAULT 0;
UPDATE "trades" t SET "maker_fee_rate_bps" = t."fee_rate_bps"
  FROM "markets" m WHERE m."condition_id" = t."condition_id" AND NOT m."fee_taker_only" AND t."fee_rate_bps" <> 0;
UPDATE "trades" t SET "maker_fee_rate_bps" = t."fee_rate_bps"
  WHERE t."fee_rate_bps" <> 0 AND NOT EXISTS (SELECT 1 FROM "markets" m WHERE m."condition_id" = t."condition_id");
ALTER TABLE "trades" ALTER COLUMN "maker_fee_rate_bps" DROP DEFAULT;
