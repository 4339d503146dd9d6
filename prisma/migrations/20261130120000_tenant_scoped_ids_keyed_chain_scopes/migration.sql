-- DropIndex
DROP INDEX "action_log_episode_id_step_index_key";

-- CreateTable
CREATE TABLE "admin_events" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "key_id" TEXT,
    "detail" TEXT NOT NULL DEFAULT '{}'
);

-- CreateTable
CREATE TABLE "legacy_chain_seals" (
    "episode_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "sealed_steps" INTEGER NOT NULL,
    "sealed_head" TEXT NOT NULL,
    "seal" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("episode_id", "tenant_id"),
    CONSTRAINT "legacy_chain_seals_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_api_keys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT 'agent',
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" DATETIME,
    "revoked_at" DATETIME,
    CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_api_keys" ("created_at", "hash", "id", "last_used_at", "name", "prefix", "revoked_at", "tenant_id") SELECT "created_at", "hash", "id", "last_used_at", "name", "prefix", "revoked_at", "tenant_id" FROM "api_keys";
DROP TABLE "api_keys";
ALTER TABLE "new_api_keys" RENAME TO "api_keys";
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");
CREATE INDEX "api_keys_tenant_id_created_at_idx" ON "api_keys"("tenant_id", "created_at");
CREATE TABLE "new_episodes" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "api_key_id" TEXT,
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
    "chain_scheme" TEXT NOT NULL DEFAULT 'sha256-v1',
    "chain_key_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,

    PRIMARY KEY ("id", "tenant_id"),
    CONSTRAINT "episodes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "episodes_task_id_task_version_fkey" FOREIGN KEY ("task_id", "task_version") REFERENCES "task_versions" ("task_id", "version") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_episodes" ("agent", "chain_head", "created_at", "id", "opened_milli", "policy_milli", "priority_milli", "reply_milli", "resolution_milli", "routing_milli", "run_label", "score_milli", "seed", "state_json", "status", "step_count", "tags_json", "task_id", "task_version", "tenant_id", "updated_at", "version") SELECT "agent", "chain_head", "created_at", "id", "opened_milli", "policy_milli", "priority_milli", "reply_milli", "resolution_milli", "routing_milli", "run_label", "score_milli", "seed", "state_json", "status", "step_count", "tags_json", "task_id", "task_version", "tenant_id", "updated_at", "version" FROM "episodes";
DROP TABLE "episodes";
ALTER TABLE "new_episodes" RENAME TO "episodes";
CREATE INDEX "episodes_tenant_id_api_key_id_created_at_id_idx" ON "episodes"("tenant_id", "api_key_id", "created_at", "id");
CREATE INDEX "episodes_tenant_id_created_at_id_idx" ON "episodes"("tenant_id", "created_at", "id");
CREATE INDEX "episodes_tenant_id_task_id_created_at_id_idx" ON "episodes"("tenant_id", "task_id", "created_at", "id");
CREATE INDEX "episodes_tenant_id_status_created_at_id_idx" ON "episodes"("tenant_id", "status", "created_at", "id");
CREATE INDEX "episodes_tenant_id_agent_created_at_id_idx" ON "episodes"("tenant_id", "agent", "created_at", "id");
CREATE INDEX "episodes_tenant_id_run_label_created_at_id_idx" ON "episodes"("tenant_id", "run_label", "created_at", "id");
CREATE INDEX "episodes_created_at_id_idx" ON "episodes"("created_at", "id");
CREATE INDEX "episodes_status_updated_at_idx" ON "episodes"("status", "updated_at");
CREATE INDEX "episodes_stats_covering_idx" ON "episodes"("tenant_id", "task_id", "score_milli", "agent", "status", "run_label", "created_at", "opened_milli", "policy_milli", "priority_milli", "routing_milli", "reply_milli", "resolution_milli");
CREATE TABLE "new_episode_tags" (
    "episode_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,

    PRIMARY KEY ("episode_id", "tenant_id", "tag"),
    CONSTRAINT "episode_tags_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_episode_tags" ("episode_id", "tag", "tenant_id") SELECT "episode_id", "tag", "tenant_id" FROM "episode_tags";
DROP TABLE "episode_tags";
ALTER TABLE "new_episode_tags" RENAME TO "episode_tags";
CREATE INDEX "episode_tags_tenant_id_tag_episode_id_idx" ON "episode_tags"("tenant_id", "tag", "episode_id");
CREATE TABLE "new_step_requests" (
    "episode_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "step_index" INTEGER NOT NULL,
    "action_hash" TEXT NOT NULL,
    "response_json" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("episode_id", "tenant_id", "request_id"),
    CONSTRAINT "step_requests_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_step_requests" ("action_hash", "created_at", "episode_id", "request_id", "response_json", "step_index", "tenant_id") SELECT "action_hash", "created_at", "episode_id", "request_id", "response_json", "step_index", "tenant_id" FROM "step_requests";
DROP TABLE "step_requests";
ALTER TABLE "new_step_requests" RENAME TO "step_requests";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "admin_events_at_id_idx" ON "admin_events"("at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "action_log_episode_id_tenant_id_step_index_key" ON "action_log"("episode_id", "tenant_id", "step_index");

