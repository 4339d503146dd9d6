-- AlterTable
ALTER TABLE "tenants" ADD COLUMN "retention_days" INTEGER;

-- CreateTable
CREATE TABLE "ledger_gaps" (
    "tenant_id" TEXT NOT NULL,
    "first_seq" INTEGER NOT NULL,
    "last_seq" INTEGER NOT NULL,
    "last_mac" TEXT NOT NULL,
    "purge_seq" INTEGER NOT NULL,

    PRIMARY KEY ("tenant_id", "first_seq")
);

-- CreateTable
CREATE TABLE "purge_guard" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "reason" TEXT NOT NULL
);


-- Written by hand (Prisma has no notation for triggers): the log, the ledger and its gaps stay append-only, except
-- for deletes made while purge_guard holds a row, which only a purge's own transaction does (it inserts the row,
-- deletes, and removes the row before it commits). The MACs, not these triggers, are what make tampering evident.
DROP TRIGGER "action_log_no_delete";
CREATE TRIGGER "action_log_no_delete" BEFORE DELETE ON "action_log"
WHEN NOT EXISTS (SELECT 1 FROM "purge_guard")
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only: rows cannot be deleted');
END;

DROP TRIGGER "ledger_entries_no_delete";
CREATE TRIGGER "ledger_entries_no_delete" BEFORE DELETE ON "ledger_entries"
WHEN NOT EXISTS (SELECT 1 FROM "purge_guard")
BEGIN
    SELECT RAISE(ABORT, 'ledger_entries is append-only: rows cannot be deleted');
END;

CREATE TRIGGER "ledger_gaps_no_update" BEFORE UPDATE ON "ledger_gaps"
BEGIN
    SELECT RAISE(ABORT, 'ledger_gaps is append-only: rows cannot be updated');
END;

CREATE TRIGGER "ledger_gaps_no_delete" BEFORE DELETE ON "ledger_gaps"
WHEN NOT EXISTS (SELECT 1 FROM "purge_guard")
BEGIN
    SELECT RAISE(ABORT, 'ledger_gaps is append-only: rows cannot be deleted');
END;
