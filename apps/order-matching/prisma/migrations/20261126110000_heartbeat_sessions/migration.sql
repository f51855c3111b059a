-- Cancel-on-disconnect sessions survive a restart of order-matching.
-- CreateTable
CREATE TABLE "heartbeat_sessions" (
    "api_key" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "heartbeat_sessions_pkey" PRIMARY KEY ("api_key")
);

