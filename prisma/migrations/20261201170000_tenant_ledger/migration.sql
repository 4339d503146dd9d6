-- The tenant ledger (src/episodes/ledger): one MACed row per episode created, step applied, episode expired or
-- enrolled, chained across the tenant's episodes. Episodes stored before this migration are not in it until the
-- admin enrols them (POST /admin/ledger/enroll): never automatically, since that would be a condition the
-- database controls.
-- CreateTable
CREATE TABLE "ledger_entries" (
    "tenant_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "episode_id" TEXT NOT NULL,
    "step_index" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "mac" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,

    PRIMARY KEY ("tenant_id", "seq")
);

-- CreateIndex
CREATE INDEX "ledger_entries_tenant_id_episode_id_seq_idx" ON "ledger_entries"("tenant_id", "episode_id", "seq");


-- Append-only in SQLite itself; the MAC chain and the checkpoints do not rely on these triggers.
CREATE TRIGGER "ledger_entries_no_update" BEFORE UPDATE ON "ledger_entries"
BEGIN
    SELECT RAISE(ABORT, 'ledger_entries is append-only: rows cannot be updated');
END;

CREATE TRIGGER "ledger_entries_no_delete" BEFORE DELETE ON "ledger_entries"
BEGIN
    SELECT RAISE(ABORT, 'ledger_entries is append-only: rows cannot be deleted');
END;
