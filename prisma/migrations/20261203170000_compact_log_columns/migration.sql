-- The action log's two widest fixed columns in their compact forms: created_at as Unix milliseconds (an integer of
-- 6 bytes instead of 29 characters of ISO text) and hash as its 32 raw bytes (instead of 64 hex characters). Every
-- row is converted, so readers see one form (src/episodes/episode-statements.ts, ledger/ledger-rows.ts): the same
-- instants and the same hashes, which is what the chains and the ledger commit to, so everything verifies as before.
-- A hash that is not hex (no release writes one; only a tampered file holds it) keeps its bytes, and verify reports
-- the row; an empty one (rows written before chaining existed) becomes an empty value.
--
-- SQLite cannot change a column's type, so the table is rebuilt (Prisma's RedefineTables) with its indexes, and the
-- append-only triggers, which go with the old table, are made again. Dropping the old table fires no DELETE trigger.

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
    "created_at" BIGINT NOT NULL,
    "hash" BLOB NOT NULL,
    "ledger_key_id" TEXT,
    "ledger_mac" BLOB,
    "ledger_seq" INTEGER,
    "ledger_status" TEXT,
    CONSTRAINT "action_log_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_action_log" ("action_json", "created_at", "episode_id", "error", "hash", "id", "ledger_key_id", "ledger_mac", "ledger_seq", "ledger_status", "outcome", "reward_milli", "score_after_milli", "step_index", "tenant_id")
SELECT "action_json",
       CASE typeof("created_at") WHEN 'integer' THEN "created_at" ELSE CAST(ROUND(unixepoch("created_at", 'subsec') * 1000) AS INTEGER) END,
       "episode_id", "error",
       CASE typeof("hash") WHEN 'blob' THEN "hash" ELSE COALESCE(unhex("hash"), CAST("hash" AS BLOB)) END,
       "id", "ledger_key_id", "ledger_mac", "ledger_seq", "ledger_status", "outcome", "reward_milli", "score_after_milli", "step_index", "tenant_id"
  FROM "action_log";
DROP TABLE "action_log";
ALTER TABLE "new_action_log" RENAME TO "action_log";
CREATE UNIQUE INDEX "action_log_episode_id_tenant_id_step_index_key" ON "action_log"("episode_id", "tenant_id", "step_index");
CREATE UNIQUE INDEX "action_log_tenant_id_ledger_seq_key" ON "action_log"("tenant_id", "ledger_seq");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Written by hand (Prisma has no notation for triggers), as migration 20261203120000_retention_purge left them.
CREATE TRIGGER "action_log_no_update" BEFORE UPDATE ON "action_log"
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only: rows cannot be updated');
END;

CREATE TRIGGER "action_log_no_delete" BEFORE DELETE ON "action_log"
WHEN NOT EXISTS (SELECT 1 FROM "purge_guard")
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only: rows cannot be deleted');
END;
