-- The time (ms) of each market's last book event, so that the books order-matching hands to market-data
-- (a reload) carry the time of their last change rather than the time of the request: a reloaded book
-- kept its levels but got a new timestamp and hash (found by a probe). 0 until the next book event.
-- AlterTable
ALTER TABLE "markets" ADD COLUMN "book_time" BIGINT NOT NULL DEFAULT 0;
