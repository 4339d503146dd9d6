-- Integer keys where 36-character ids were repeated, and the episode's creation entry in its own row:
--
-- * Every tenant and every episode gets a serial (its rowid, numbered in creation order). An action-log row names
--   its episode and tenant by these (a few bytes where the ids took 40 or more), and the episodes' listing indexes
--   end in the serial (the rowid, which every SQLite index carries) instead of the id. Listings order by
--   (created_at, serial): for existing episodes the same order as (created_at, id), since serials follow it.
-- * action_log is keyed by (episode_serial, step_index) and made WITHOUT ROWID (by hand: Prisma has no notation
--   for it): its rows are stored in that order, so the key needs no index of its own and a row no rowid.
-- * A new episode's "episode.created" ledger entry is stored in its row (ledger_seq, ledger_mac, facts_sha256;
--   src/episodes/ledger/ledger-rows.ts) rather than as a row of ledger_entries. Existing entries stay where they are.
-- * The inactivity sweep's (status, updated_at) index goes: the sweep reads each tenant's active episodes through
--   (tenant_id, status, created_at), and finished episodes, nearly all of them, no longer pay for an entry.
--
-- The three tables are rebuilt (Prisma's RedefineTables): tenants first, then episodes, then the log, whose rows are
-- copied with their episode's and tenant's serials. The log's append-only triggers go with the old table and are
-- made again. Dropping the old tables fires no DELETE trigger.

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_tenants" (
    "serial" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retention_days" INTEGER,
    "deleting_at" DATETIME
);
INSERT INTO "new_tenants" ("created_at", "deleting_at", "id", "name", "retention_days", "slug") SELECT "created_at", "deleting_at", "id", "name", "retention_days", "slug" FROM "tenants" ORDER BY "created_at", "id";
DROP TABLE "tenants";
ALTER TABLE "new_tenants" RENAME TO "tenants";
CREATE UNIQUE INDEX "tenants_id_key" ON "tenants"("id");
CREATE UNIQUE INDEX "tenants_slug_key" ON "tenants"("slug");
CREATE TABLE "new_episodes" (
    "serial" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
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
    "grader_version" INTEGER NOT NULL DEFAULT 1,
    "feedback" TEXT NOT NULL DEFAULT 'dense',
    "alias" TEXT,
    "ledger_seq" INTEGER,
    "ledger_mac" BLOB,
    "facts_sha256" BLOB,
    "split_source" TEXT NOT NULL DEFAULT 'public',
    "split_key_id" TEXT,
    "run_id" TEXT,
    "run_trial" INTEGER,
    CONSTRAINT "episodes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "episodes_task_id_task_version_fkey" FOREIGN KEY ("task_id", "task_version") REFERENCES "task_versions" ("task_id", "version") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_episodes" ("agent", "alias", "api_key_id", "chain_head", "chain_key_id", "chain_scheme", "created_at", "feedback", "grader_version", "id", "opened_milli", "policy_milli", "priority_milli", "reply_milli", "resolution_milli", "routing_milli", "run_id", "run_label", "run_trial", "score_milli", "seed", "split_key_id", "split_source", "state_json", "status", "step_count", "tags_json", "task_id", "task_version", "tenant_id", "updated_at", "version") SELECT "agent", "alias", "api_key_id", "chain_head", "chain_key_id", "chain_scheme", "created_at", "feedback", "grader_version", "id", "opened_milli", "policy_milli", "priority_milli", "reply_milli", "resolution_milli", "routing_milli", "run_id", "run_label", "run_trial", "score_milli", "seed", "split_key_id", "split_source", "state_json", "status", "step_count", "tags_json", "task_id", "task_version", "tenant_id", "updated_at", "version" FROM "episodes" ORDER BY "created_at", "id";
DROP TABLE "episodes";
ALTER TABLE "new_episodes" RENAME TO "episodes";
CREATE INDEX "episodes_tenant_id_api_key_id_created_at_idx" ON "episodes"("tenant_id", "api_key_id", "created_at");
CREATE INDEX "episodes_tenant_id_created_at_idx" ON "episodes"("tenant_id", "created_at");
CREATE INDEX "episodes_tenant_id_task_id_created_at_idx" ON "episodes"("tenant_id", "task_id", "created_at");
CREATE INDEX "episodes_tenant_id_status_created_at_idx" ON "episodes"("tenant_id", "status", "created_at");
CREATE INDEX "episodes_tenant_id_agent_created_at_idx" ON "episodes"("tenant_id", "agent", "created_at");
CREATE INDEX "episodes_tenant_id_run_label_created_at_idx" ON "episodes"("tenant_id", "run_label", "created_at");
CREATE INDEX "episodes_tenant_id_task_id_seed_agent_run_label_created_at_task_version_split_key_id_idx" ON "episodes"("tenant_id", "task_id", "seed", "agent", "run_label", "created_at", "task_version", "split_key_id");
CREATE INDEX "episodes_created_at_idx" ON "episodes"("created_at");
CREATE INDEX "episodes_stats_covering_idx" ON "episodes"("tenant_id", "task_id", "score_milli", "agent", "status", "run_label", "created_at", "opened_milli", "policy_milli", "priority_milli", "routing_milli", "reply_milli", "resolution_milli");
CREATE UNIQUE INDEX "episodes_id_tenant_id_key" ON "episodes"("id", "tenant_id");
CREATE UNIQUE INDEX "episodes_tenant_id_api_key_id_alias_key" ON "episodes"("tenant_id", "api_key_id", "alias");
CREATE UNIQUE INDEX "episodes_tenant_id_ledger_seq_key" ON "episodes"("tenant_id", "ledger_seq");
CREATE TABLE "new_action_log" (
    "episode_serial" INTEGER NOT NULL,
    "tenant_serial" INTEGER NOT NULL,
    "step_index" INTEGER NOT NULL,
    "action_json" TEXT NOT NULL,
    "reward_milli" INTEGER NOT NULL,
    "score_after_milli" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "created_at" BIGINT NOT NULL,
    "hash" BLOB NOT NULL,
    "ledger_key_id" TEXT,
    "ledger_mac" BLOB,
    "ledger_seq" INTEGER,
    "ledger_status" TEXT,

    PRIMARY KEY ("episode_serial", "step_index"),
    CONSTRAINT "action_log_episode_serial_fkey" FOREIGN KEY ("episode_serial") REFERENCES "episodes" ("serial") ON DELETE RESTRICT ON UPDATE CASCADE
) WITHOUT ROWID;
INSERT INTO "new_action_log" ("action_json", "created_at", "error", "hash", "ledger_key_id", "ledger_mac", "ledger_seq", "ledger_status", "outcome", "reward_milli", "score_after_milli", "step_index", "episode_serial", "tenant_serial")
SELECT a."action_json", a."created_at", a."error", a."hash", a."ledger_key_id", a."ledger_mac", a."ledger_seq", a."ledger_status", a."outcome", a."reward_milli", a."score_after_milli", a."step_index", e."serial", t."serial"
  FROM "action_log" a
  JOIN "episodes" e ON e."id" = a."episode_id" AND e."tenant_id" = a."tenant_id"
  JOIN "tenants" t ON t."id" = a."tenant_id"
 ORDER BY e."serial", a."step_index";
DROP TABLE "action_log";
ALTER TABLE "new_action_log" RENAME TO "action_log";
CREATE UNIQUE INDEX "action_log_tenant_serial_ledger_seq_key" ON "action_log"("tenant_serial", "ledger_seq");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Written by hand (Prisma has no notation for triggers), as migration 20261203170000_compact_log_columns left them.
CREATE TRIGGER "action_log_no_update" BEFORE UPDATE ON "action_log"
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only: rows cannot be updated');
END;

CREATE TRIGGER "action_log_no_delete" BEFORE DELETE ON "action_log"
WHEN NOT EXISTS (SELECT 1 FROM "purge_guard")
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only: rows cannot be deleted');
END;

-- An episode's creation entry is as append-only as the rest of the ledger: once its row holds it, no update may
-- change it (the rest of the row changes with every step). A purge or a tenant's deletion deletes the whole row.
CREATE TRIGGER "episodes_ledger_entry_no_update" BEFORE UPDATE OF "ledger_seq", "ledger_mac", "facts_sha256" ON "episodes"
WHEN OLD."ledger_seq" IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'an episode''s ledger entry is append-only: it cannot be updated');
END;
