-- One local market per upstream market, held by the database: the writer check alone let two imports
-- at the same moment both create one. Partial (markets made here have an empty upstream id), so in raw SQL.
-- Markets an earlier version imported twice keep their data, and all but the oldest lose the upstream link.
UPDATE "markets" m SET "mirror_condition_id" = ''
WHERE m."mirror_condition_id" <> ''
  AND EXISTS (SELECT 1 FROM "markets" o WHERE o."mirror_condition_id" = m."mirror_condition_id" AND o."id" < m."id");

CREATE UNIQUE INDEX "markets_one_per_upstream_market" ON "markets"("mirror_condition_id") WHERE "mirror_condition_id" <> '';
