-- A trader may name a split or a merge too, so that a retry after a lost answer is not applied twice.
-- Its references are its own (two traders may both use "1"), the operator's are one name space per kind.
DROP INDEX "money_moves_kind_reference_key";
CREATE UNIQUE INDEX "money_moves_operator_reference_key" ON "money_moves"("kind", "reference") WHERE "kind" IN ('deposit', 'withdrawal');
CREATE UNIQUE INDEX "money_moves_trader_reference_key" ON "money_moves"("kind", "address", "reference") WHERE "kind" IN ('split', 'merge');
