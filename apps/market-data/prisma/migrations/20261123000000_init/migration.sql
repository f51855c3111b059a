-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "markets" (
    "condition_id" TEXT NOT NULL,
    "market_id" INTEGER NOT NULL,
    "token_ids" TEXT[],
    "tick_size" INTEGER NOT NULL,
    "snapshot" JSONB NOT NULL,
    "catalog_updated_at" TIMESTAMPTZ(3) NOT NULL,
    "rewards" JSONB NOT NULL DEFAULT '{"rates":[],"min_size":0,"max_spread":0}',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "markets_pkey" PRIMARY KEY ("condition_id")
);

-- CreateTable
CREATE TABLE "price_history" (
    "trade_id" TEXT NOT NULL,
    "condition_id" TEXT NOT NULL,
    "time_ms" BIGINT NOT NULL,
    "price" INTEGER NOT NULL,
    "stream_seq" BIGINT NOT NULL,

    CONSTRAINT "price_history_pkey" PRIMARY KEY ("trade_id")
);

-- CreateTable
CREATE TABLE "stream_snapshots" (
    "name" TEXT NOT NULL,
    "stream_seq" BIGINT NOT NULL,
    "state" JSONB NOT NULL,
    "taken_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stream_snapshots_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "markets_market_id_key" ON "markets"("market_id");

-- CreateIndex
CREATE INDEX "price_history_condition_id_time_ms_idx" ON "price_history"("condition_id", "time_ms");

