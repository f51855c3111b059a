-- A market order-matching resolved: the operator's PATCH may not reopen it.
-- AlterTable
ALTER TABLE "markets" ADD COLUMN     "resolved" BOOLEAN NOT NULL DEFAULT false;

