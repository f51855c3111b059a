-- A caller's trades are listed newest first (docs/trading.md, "Queries"), and trades of one millisecond
-- (one batch) by their time-ordered ids, the newest first too: until 2026-11-27 ties were listed oldest
-- first (found by a probe). Each index now holds the whole order, so the walks stop at the page.
-- DropIndex
DROP INDEX "trades_taker_match_time_idx";

-- DropIndex
DROP INDEX "trade_makers_maker_match_time_trade_id_idx";

-- CreateIndex
CREATE INDEX "trades_taker_match_time_id_idx" ON "trades"("taker", "match_time", "id");

-- CreateIndex
CREATE INDEX "trade_makers_maker_match_time_trade_id_idx" ON "trade_makers"("maker", "match_time" DESC, "trade_id" DESC);
