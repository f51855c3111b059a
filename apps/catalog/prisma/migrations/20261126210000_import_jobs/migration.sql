-- Imports run in the background: their progress and report are kept here, so that the operator can
-- read them from any catalog replica, during the import and after it.
CREATE TABLE "imports" (
    "id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "created" JSONB NOT NULL,
    "skipped" JSONB NOT NULL,
    "error" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "imports_pkey" PRIMARY KEY ("id")
);
