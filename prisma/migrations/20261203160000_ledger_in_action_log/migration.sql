-- A step's ledger entry moves into its action_log row (src/episodes/ledger/ledger-rows.ts): the row carries its
-- place in the tenant's ledger and the entry's MAC, and the rest of the entry is the row itself, so a step no
-- longer writes a second row of about 350 bytes with two index entries. Rows already stored keep their entries in
-- ledger_entries (these columns stay null for them); readers see both through one union. action_log stays
-- append-only: its triggers are unchanged, and the columns are written with the row.

-- AlterTable
ALTER TABLE "action_log" ADD COLUMN "ledger_key_id" TEXT;
ALTER TABLE "action_log" ADD COLUMN "ledger_mac" BLOB;
ALTER TABLE "action_log" ADD COLUMN "ledger_seq" INTEGER;
ALTER TABLE "action_log" ADD COLUMN "ledger_status" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "action_log_tenant_id_ledger_seq_key" ON "action_log"("tenant_id", "ledger_seq");
