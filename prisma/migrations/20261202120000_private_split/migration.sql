-- The private test split (docs/evaluation.md): each episode records which split its instance was drawn from,
-- "public" (every existing row: the generator fed the seed itself) or "private" (fed a seed derived under the
-- server's private-split secret), and for a private one the id of that key, never the secret.
-- AlterTable
ALTER TABLE "episodes" ADD COLUMN "split_source" TEXT NOT NULL DEFAULT 'public';
ALTER TABLE "episodes" ADD COLUMN "split_key_id" TEXT;

-- A private-split play of a test seed is its own repeated-test-play cell (another instance of the seed): the
-- check's index holds split_key_id too, so counting still reads no wide row.
-- DropIndex
DROP INDEX "episodes_tenant_id_task_id_seed_agent_run_label_created_at_id_task_version_idx";

-- CreateIndex
CREATE INDEX "episodes_tenant_id_task_id_seed_agent_run_label_created_at_id_task_version_split_key_id_idx" ON "episodes"("tenant_id", "task_id", "seed", "agent", "run_label", "created_at", "id", "task_version", "split_key_id");
