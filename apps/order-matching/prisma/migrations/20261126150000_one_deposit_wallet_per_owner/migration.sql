-- An owner has one deposit wallet, which its keys reach by signature type 3 (docs/trading.md,
-- "A caller's accounts"). A database where one owner was bound two wallets fails here: delete one row.
-- CreateIndex
CREATE UNIQUE INDEX "deposit_wallets_owner_key" ON "deposit_wallets"("owner");
