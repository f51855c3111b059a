-- The operator's bindings of deposit wallets (signature type 3) to the owners that sign for them.
-- CreateTable
CREATE TABLE "deposit_wallets" (
    "wallet" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "bound_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deposit_wallets_pkey" PRIMARY KEY ("wallet")
);
