-- CreateTable
CREATE TABLE "step_requests" (
    "episode_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "step_index" INTEGER NOT NULL,
    "action_hash" TEXT NOT NULL,
    "response_json" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("episode_id", "request_id"),
    CONSTRAINT "step_requests_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "episodes_status_updated_at_idx" ON "episodes"("status", "updated_at");

