-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "api_keys" (
    "api_key" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "secret_encrypted" BYTEA NOT NULL,
    "passphrase_encrypted" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("api_key")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_address_nonce_key" ON "api_keys"("address", "nonce");

