-- The catalog's updatedAt of the snapshot a market row holds: a snapshot redelivered late (its consumer
-- was killed before acknowledging it) must not overwrite a newer one. NULL for rows written before.
ALTER TABLE "markets" ADD COLUMN "catalog_updated_at" TIMESTAMPTZ(3);
