-- The operator's reference of a deposit or withdrawal: a retry with the same one is answered, not applied again.
ALTER TABLE "money_moves" ADD COLUMN "reference" TEXT;

CREATE UNIQUE INDEX "money_moves_kind_reference_key" ON "money_moves"("kind", "reference");
