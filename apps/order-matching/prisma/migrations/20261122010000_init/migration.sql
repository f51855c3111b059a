-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "markets" (
    "condition_id" TEXT NOT NULL,
    "token_ids" TEXT[],
    "outcomes" TEXT[],
    "tick_size" INTEGER NOT NULL,
    "min_order_size" BIGINT NOT NULL,
    "neg_risk" BOOLEAN NOT NULL,
    "fee_rate_ppm" INTEGER NOT NULL,
    "fee_exponent" INTEGER NOT NULL,
    "fee_taker_only" BOOLEAN NOT NULL,
    "rebate_rate_ppm" INTEGER NOT NULL,
    "accepting_orders" BOOLEAN NOT NULL,
    "winning_outcome" INTEGER NOT NULL DEFAULT -1,
    "book_seq" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "markets_pkey" PRIMARY KEY ("condition_id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "owner" TEXT NOT NULL,
    "maker" TEXT NOT NULL,
    "signer" TEXT NOT NULL,
    "condition_id" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "outcome" INTEGER NOT NULL,
    "side" TEXT NOT NULL,
    "price" INTEGER NOT NULL,
    "size" BIGINT NOT NULL,
    "matched" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "order_type" TEXT NOT NULL,
    "post_only" BOOLEAN NOT NULL,
    "expiration" BIGINT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "reserved_asset" TEXT NOT NULL,
    "reserved" BIGINT NOT NULL,
    "trade_ids" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trades" (
    "id" TEXT NOT NULL,
    "batch_id" TEXT NOT NULL,
    "condition_id" TEXT NOT NULL,
    "taker_order_id" TEXT NOT NULL,
    "taker" TEXT NOT NULL,
    "taker_owner" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "outcome" INTEGER NOT NULL,
    "side" TEXT NOT NULL,
    "shares" BIGINT NOT NULL,
    "collateral" BIGINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "fee_rate_bps" INTEGER NOT NULL,
    "match_time" BIGINT NOT NULL,

    CONSTRAINT "trades_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trade_makers" (
    "trade_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "maker" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "outcome" INTEGER NOT NULL,
    "side" TEXT NOT NULL,
    "shares" BIGINT NOT NULL,
    "price" INTEGER NOT NULL,
    "fee" BIGINT NOT NULL,
    "rebate" BIGINT NOT NULL,

    CONSTRAINT "trade_makers_pkey" PRIMARY KEY ("trade_id","order_id")
);

-- CreateTable
CREATE TABLE "balances" (
    "address" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "available" BIGINT NOT NULL,
    "reserved" BIGINT NOT NULL,

    CONSTRAINT "balances_pkey" PRIMARY KEY ("address","asset")
);

-- CreateTable
CREATE TABLE "money_moves" (
    "id" BIGSERIAL NOT NULL,
    "batch_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "condition_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "payout" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "money_moves_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batches" (
    "id" TEXT NOT NULL,
    "commands" INTEGER NOT NULL,
    "committed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_cursor" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "last_id" BIGINT NOT NULL,

    CONSTRAINT "outbox_cursor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settings" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "settings_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "orders_seq_key" ON "orders"("seq");

-- CreateIndex
CREATE INDEX "orders_owner_status_idx" ON "orders"("owner", "status");

-- CreateIndex
CREATE INDEX "orders_maker_idx" ON "orders"("maker");

-- CreateIndex
CREATE INDEX "orders_status_idx" ON "orders"("status");

-- CreateIndex
CREATE INDEX "trades_taker_match_time_idx" ON "trades"("taker", "match_time");

-- CreateIndex
CREATE INDEX "trades_condition_id_match_time_idx" ON "trades"("condition_id", "match_time");

-- CreateIndex
CREATE INDEX "trade_makers_maker_idx" ON "trade_makers"("maker");

-- CreateIndex
CREATE INDEX "money_moves_address_idx" ON "money_moves"("address");

-- AddForeignKey
ALTER TABLE "trade_makers" ADD CONSTRAINT "trade_makers_trade_id_fkey" FOREIGN KEY ("trade_id") REFERENCES "trades"("id") ON DELETE CASCADE ON UPDATE CASCADE;

