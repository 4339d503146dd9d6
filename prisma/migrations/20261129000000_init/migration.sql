-- CreateTable
CREATE TABLE "tenants" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "task_versions" (
    "task_id" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "content_json" TEXT NOT NULL,
    "synced_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("task_id", "version")
);

-- CreateTable
CREATE TABLE "episodes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "task_version" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "step_count" INTEGER NOT NULL,
    "score_milli" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "state_json" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "episodes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "episodes_task_id_task_version_fkey" FOREIGN KEY ("task_id", "task_version") REFERENCES "task_versions" ("task_id", "version") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "action_log" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "episode_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "step_index" INTEGER NOT NULL,
    "action_json" TEXT NOT NULL,
    "reward_milli" INTEGER NOT NULL,
    "score_after_milli" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "action_log_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "tenants_slug_key" ON "tenants"("slug");

-- CreateIndex
CREATE INDEX "episodes_tenant_id_created_at_idx" ON "episodes"("tenant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "episodes_id_tenant_id_key" ON "episodes"("id", "tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "action_log_episode_id_step_index_key" ON "action_log"("episode_id", "step_index");

