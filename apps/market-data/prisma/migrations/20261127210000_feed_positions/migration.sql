-- What each durable feed applied last, written with its effects: a database restored from a backup
-- starts its feed right after it, while NATS's consumer position is past what the restore lost.
CREATE TABLE "feed_positions" (
    "feed" TEXT NOT NULL,
    "stream_created" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "feed_positions_pkey" PRIMARY KEY ("feed")
);
