-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" DATETIME,
    "revoked_at" DATETIME,
    CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "episode_tags" (
    "episode_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,

    PRIMARY KEY ("episode_id", "tag"),
    CONSTRAINT "episode_tags_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_episodes" (
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
    "agent" TEXT,
    "run_label" TEXT,
    "tags_json" TEXT NOT NULL DEFAULT '[]',
    "opened_milli" INTEGER NOT NULL DEFAULT 0,
    "policy_milli" INTEGER NOT NULL DEFAULT 0,
    "priority_milli" INTEGER NOT NULL DEFAULT 0,
    "routing_milli" INTEGER NOT NULL DEFAULT 0,
    "reply_milli" INTEGER NOT NULL DEFAULT 0,
    "resolution_milli" INTEGER NOT NULL DEFAULT 0,
    "chain_head" TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "episodes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "episodes_task_id_task_version_fkey" FOREIGN KEY ("task_id", "task_version") REFERENCES "task_versions" ("task_id", "version") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_episodes" ("created_at", "id", "score_milli", "seed", "state_json", "status", "step_count", "task_id", "task_version", "tenant_id", "updated_at", "version") SELECT "created_at", "id", "score_milli", "seed", "state_json", "status", "step_count", "task_id", "task_version", "tenant_id", "updated_at", "version" FROM "episodes";
DROP TABLE "episodes";
ALTER TABLE "new_episodes" RENAME TO "episodes";
CREATE INDEX "episodes_tenant_id_created_at_id_idx" ON "episodes"("tenant_id", "created_at", "id");
CREATE INDEX "episodes_tenant_id_task_id_created_at_id_idx" ON "episodes"("tenant_id", "task_id", "created_at", "id");
CREATE INDEX "episodes_tenant_id_status_created_at_id_idx" ON "episodes"("tenant_id", "status", "created_at", "id");
CREATE INDEX "episodes_tenant_id_agent_created_at_id_idx" ON "episodes"("tenant_id", "agent", "created_at", "id");
CREATE INDEX "episodes_tenant_id_run_label_created_at_id_idx" ON "episodes"("tenant_id", "run_label", "created_at", "id");
CREATE INDEX "episodes_created_at_id_idx" ON "episodes"("created_at", "id");
CREATE INDEX "episodes_stats_covering_idx" ON "episodes"("tenant_id", "task_id", "score_milli", "agent", "status", "run_label", "created_at", "opened_milli", "policy_milli", "priority_milli", "routing_milli", "reply_milli", "resolution_milli");
CREATE UNIQUE INDEX "episodes_id_tenant_id_key" ON "episodes"("id", "tenant_id");
CREATE TABLE "new_action_log" (
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
    "hash" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "action_log_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_action_log" ("action_json", "created_at", "episode_id", "error", "id", "outcome", "reward_milli", "score_after_milli", "step_index", "tenant_id") SELECT "action_json", "created_at", "episode_id", "error", "id", "outcome", "reward_milli", "score_after_milli", "step_index", "tenant_id" FROM "action_log";
DROP TABLE "action_log";
ALTER TABLE "new_action_log" RENAME TO "action_log";
CREATE UNIQUE INDEX "action_log_episode_id_step_index_key" ON "action_log"("episode_id", "step_index");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_tenant_id_created_at_idx" ON "api_keys"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "episode_tags_tenant_id_tag_episode_id_idx" ON "episode_tags"("tenant_id", "tag", "episode_id");


-- Written by hand (Prisma has no notation for triggers): the action log is append-only at the database level.
CREATE TRIGGER "action_log_no_update" BEFORE UPDATE ON "action_log"
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only: rows cannot be updated');
END;

CREATE TRIGGER "action_log_no_delete" BEFORE DELETE ON "action_log"
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only: rows cannot be deleted');
END;
