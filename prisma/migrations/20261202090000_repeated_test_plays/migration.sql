-- Repeated test plays (GET /episodes?repeated_test_play=, /stats): a tenant's earlier episodes of the same task,
-- seed, agent and run label, found by one index search; the index holds every column the check reads, so the
-- count in /stats reads no wide row.
-- CreateIndex
CREATE INDEX "episodes_tenant_id_task_id_seed_agent_run_label_created_at_id_task_version_idx" ON "episodes"("tenant_id", "task_id", "seed", "agent", "run_label", "created_at", "id", "task_version");
