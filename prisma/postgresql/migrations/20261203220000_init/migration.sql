-- The PostgreSQL history starts from the schema of this release (SQLite's history, prisma/migrations, reached it in
-- 18 steps). Generated with `prisma migrate diff --from-empty`, then the hand-written rules below it.

-- CreateTable
CREATE TABLE "tenants" (
    "serial" SERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retention_days" INTEGER,
    "deleting_at" TIMESTAMPTZ(3),

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("serial")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT 'agent',
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_versions" (
    "task_id" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "content_json" TEXT NOT NULL,
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_versions_pkey" PRIMARY KEY ("task_id","version")
);

-- CreateTable
CREATE TABLE "episodes" (
    "serial" SERIAL NOT NULL,
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
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "grader_version" INTEGER NOT NULL DEFAULT 1,
    "feedback" TEXT NOT NULL DEFAULT 'dense',
    "alias" TEXT,
    "ledger_seq" INTEGER,
    "ledger_mac" BYTEA,
    "facts_sha256" BYTEA,
    "split_source" TEXT NOT NULL DEFAULT 'public',
    "split_key_id" TEXT,
    "run_id" TEXT,
    "run_trial" INTEGER,

    CONSTRAINT "episodes_pkey" PRIMARY KEY ("serial")
);

-- CreateTable
CREATE TABLE "episode_tags" (
    "episode_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,

    CONSTRAINT "episode_tags_pkey" PRIMARY KEY ("episode_id","tenant_id","tag")
);

-- CreateTable
CREATE TABLE "action_log" (
    "episode_serial" INTEGER NOT NULL,
    "tenant_serial" INTEGER NOT NULL,
    "step_index" INTEGER NOT NULL,
    "action_json" TEXT NOT NULL,
    "reward_milli" INTEGER NOT NULL,
    "score_after_milli" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "created_at" BIGINT NOT NULL,
    "hash" BYTEA NOT NULL,
    "ledger_key_id" TEXT,
    "ledger_mac" BYTEA,
    "ledger_seq" INTEGER,
    "ledger_status" TEXT,

    CONSTRAINT "action_log_pkey" PRIMARY KEY ("episode_serial","step_index")
);

-- CreateTable
CREATE TABLE "step_requests" (
    "episode_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "step_index" INTEGER NOT NULL,
    "action_hash" TEXT NOT NULL,
    "response_json" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "step_requests_pkey" PRIMARY KEY ("episode_id","tenant_id","request_id")
);

-- CreateTable
CREATE TABLE "admin_events" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "key_id" TEXT,
    "detail" TEXT NOT NULL DEFAULT '{}',

    CONSTRAINT "admin_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "legacy_chain_seals" (
    "episode_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "sealed_steps" INTEGER NOT NULL,
    "sealed_head" TEXT NOT NULL,
    "seal" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "legacy_chain_seals_pkey" PRIMARY KEY ("episode_id","tenant_id")
);

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
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("tenant_id","seq")
);

-- CreateTable
CREATE TABLE "ledger_gaps" (
    "tenant_id" TEXT NOT NULL,
    "first_seq" INTEGER NOT NULL,
    "last_seq" INTEGER NOT NULL,
    "last_mac" TEXT NOT NULL,
    "purge_seq" INTEGER NOT NULL,

    CONSTRAINT "ledger_gaps_pkey" PRIMARY KEY ("tenant_id","first_seq")
);

-- CreateTable
CREATE TABLE "active_states" (
    "episode_serial" INTEGER NOT NULL,
    "state_json" TEXT NOT NULL,

    CONSTRAINT "active_states_pkey" PRIMARY KEY ("episode_serial")
);

-- CreateTable
CREATE TABLE "purge_guard" (
    "id" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,

    CONSTRAINT "purge_guard_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "api_key_id" TEXT,
    "name" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "model" TEXT,
    "split" TEXT NOT NULL,
    "feedback" TEXT NOT NULL,
    "families_json" TEXT NOT NULL,
    "seeds_json" TEXT NOT NULL,
    "trials" INTEGER NOT NULL,
    "success_milli" INTEGER NOT NULL DEFAULT 1000,
    "metadata_json" TEXT NOT NULL DEFAULT '{}',
    "config_hash" TEXT NOT NULL,
    "grader_version" INTEGER NOT NULL,
    "generators_json" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "cell_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id","tenant_id")
);

-- CreateTable
CREATE TABLE "run_cells" (
    "run_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "trial" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "episode_id" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "termination" TEXT,
    "score_milli" INTEGER,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "wall_ms" INTEGER,
    "input_tokens" INTEGER,
    "output_tokens" INTEGER,

    CONSTRAINT "run_cells_pkey" PRIMARY KEY ("run_id","tenant_id","task_id","seed","trial")
);

-- CreateTable
CREATE TABLE "run_regrades" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "grader_version" INTEGER NOT NULL,
    "episode_count" INTEGER NOT NULL,
    "changed_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "run_regrades_pkey" PRIMARY KEY ("id","tenant_id")
);

-- CreateTable
CREATE TABLE "run_regrade_results" (
    "regrade_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "trial" INTEGER NOT NULL,
    "episode_id" TEXT NOT NULL,
    "score_milli" INTEGER NOT NULL,
    "before_milli" INTEGER NOT NULL,
    "changed" BOOLEAN NOT NULL,
    "components_json" TEXT NOT NULL,

    CONSTRAINT "run_regrade_results_pkey" PRIMARY KEY ("regrade_id","tenant_id","task_id","seed","trial")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenants_id_key" ON "tenants"("id");

-- CreateIndex
CREATE UNIQUE INDEX "tenants_slug_key" ON "tenants"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_tenant_id_created_at_idx" ON "api_keys"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "episodes_tenant_id_api_key_id_created_at_idx" ON "episodes"("tenant_id", "api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "episodes_tenant_id_created_at_idx" ON "episodes"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "episodes_tenant_id_task_id_created_at_idx" ON "episodes"("tenant_id", "task_id", "created_at");

-- CreateIndex
CREATE INDEX "episodes_tenant_id_status_created_at_idx" ON "episodes"("tenant_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "episodes_tenant_id_agent_created_at_idx" ON "episodes"("tenant_id", "agent", "created_at");

-- CreateIndex
CREATE INDEX "episodes_tenant_id_run_label_created_at_idx" ON "episodes"("tenant_id", "run_label", "created_at");

-- CreateIndex
CREATE INDEX "episodes_tenant_id_task_id_seed_agent_run_label_created_at__idx" ON "episodes"("tenant_id", "task_id", "seed", "agent", "run_label", "created_at", "task_version", "split_key_id");

-- CreateIndex
CREATE INDEX "episodes_created_at_idx" ON "episodes"("created_at");

-- CreateIndex
CREATE INDEX "episodes_stats_covering_idx" ON "episodes"("tenant_id", "task_id", "score_milli", "agent", "status", "run_label", "created_at", "opened_milli", "policy_milli", "priority_milli", "routing_milli", "reply_milli", "resolution_milli");

-- CreateIndex
CREATE UNIQUE INDEX "episodes_id_tenant_id_key" ON "episodes"("id", "tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "episodes_tenant_id_api_key_id_alias_key" ON "episodes"("tenant_id", "api_key_id", "alias");

-- CreateIndex
CREATE UNIQUE INDEX "episodes_tenant_id_ledger_seq_key" ON "episodes"("tenant_id", "ledger_seq");

-- CreateIndex
CREATE INDEX "episode_tags_tenant_id_tag_episode_id_idx" ON "episode_tags"("tenant_id", "tag", "episode_id");

-- CreateIndex
CREATE UNIQUE INDEX "action_log_tenant_serial_ledger_seq_key" ON "action_log"("tenant_serial", "ledger_seq");

-- CreateIndex
CREATE INDEX "admin_events_at_id_idx" ON "admin_events"("at", "id");

-- CreateIndex
CREATE INDEX "ledger_entries_tenant_id_episode_id_seq_idx" ON "ledger_entries"("tenant_id", "episode_id", "seq");

-- CreateIndex
CREATE INDEX "runs_tenant_id_created_at_id_idx" ON "runs"("tenant_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "runs_tenant_id_api_key_id_created_at_id_idx" ON "runs"("tenant_id", "api_key_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "runs_tenant_id_split_status_config_hash_agent_created_at_idx" ON "runs"("tenant_id", "split", "status", "config_hash", "agent", "created_at");

-- CreateIndex
CREATE INDEX "run_cells_tenant_id_run_id_status_position_idx" ON "run_cells"("tenant_id", "run_id", "status", "position");

-- CreateIndex
CREATE INDEX "run_cells_tenant_id_episode_id_idx" ON "run_cells"("tenant_id", "episode_id");

-- CreateIndex
CREATE UNIQUE INDEX "run_cells_tenant_id_run_id_position_key" ON "run_cells"("tenant_id", "run_id", "position");

-- CreateIndex
CREATE INDEX "run_regrades_tenant_id_run_id_created_at_idx" ON "run_regrades"("tenant_id", "run_id", "created_at");

-- CreateIndex
CREATE INDEX "run_regrade_results_tenant_id_regrade_id_changed_idx" ON "run_regrade_results"("tenant_id", "regrade_id", "changed");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_task_id_task_version_fkey" FOREIGN KEY ("task_id", "task_version") REFERENCES "task_versions"("task_id", "version") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "episode_tags" ADD CONSTRAINT "episode_tags_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes"("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "action_log" ADD CONSTRAINT "action_log_episode_serial_fkey" FOREIGN KEY ("episode_serial") REFERENCES "episodes"("serial") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_requests" ADD CONSTRAINT "step_requests_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes"("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "legacy_chain_seals" ADD CONSTRAINT "legacy_chain_seals_episode_id_tenant_id_fkey" FOREIGN KEY ("episode_id", "tenant_id") REFERENCES "episodes"("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "active_states" ADD CONSTRAINT "active_states_episode_serial_fkey" FOREIGN KEY ("episode_serial") REFERENCES "episodes"("serial") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_cells" ADD CONSTRAINT "run_cells_run_id_tenant_id_fkey" FOREIGN KEY ("run_id", "tenant_id") REFERENCES "runs"("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_regrades" ADD CONSTRAINT "run_regrades_run_id_tenant_id_fkey" FOREIGN KEY ("run_id", "tenant_id") REFERENCES "runs"("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_regrade_results" ADD CONSTRAINT "run_regrade_results_regrade_id_tenant_id_fkey" FOREIGN KEY ("regrade_id", "tenant_id") REFERENCES "run_regrades"("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Append-only rules, as SQLite's triggers enforce them (Prisma has no notation for triggers). The log, the ledger and
-- its gaps are never updated; rows are deleted only by a purge or a tenant's deletion, which holds a row in
-- purge_guard for the length of its transaction (other transactions never see it: it is deleted before commit).
CREATE FUNCTION "supportdesk_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM "purge_guard") THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION '% is append-only: rows cannot be %', TG_TABLE_NAME, CASE TG_OP WHEN 'UPDATE' THEN 'updated' ELSE 'deleted' END
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;

CREATE TRIGGER "action_log_no_update" BEFORE UPDATE ON "action_log" FOR EACH ROW EXECUTE FUNCTION "supportdesk_append_only"();
CREATE TRIGGER "action_log_no_delete" BEFORE DELETE ON "action_log" FOR EACH ROW EXECUTE FUNCTION "supportdesk_append_only"();
CREATE TRIGGER "ledger_entries_no_update" BEFORE UPDATE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "supportdesk_append_only"();
CREATE TRIGGER "ledger_entries_no_delete" BEFORE DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "supportdesk_append_only"();
CREATE TRIGGER "ledger_gaps_no_update" BEFORE UPDATE ON "ledger_gaps" FOR EACH ROW EXECUTE FUNCTION "supportdesk_append_only"();
CREATE TRIGGER "ledger_gaps_no_delete" BEFORE DELETE ON "ledger_gaps" FOR EACH ROW EXECUTE FUNCTION "supportdesk_append_only"();

-- An episode's creation entry is as append-only as the rest of the ledger: once its row holds it, no update may
-- change it (the rest of the row changes with every step). A purge or a tenant's deletion deletes the whole row.
CREATE FUNCTION "supportdesk_ledger_entry_fixed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'an episode''s ledger entry is append-only: it cannot be updated'
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;

CREATE TRIGGER "episodes_ledger_entry_no_update" BEFORE UPDATE OF "ledger_seq", "ledger_mac", "facts_sha256" ON "episodes"
FOR EACH ROW WHEN (OLD."ledger_seq" IS NOT NULL) EXECUTE FUNCTION "supportdesk_ledger_entry_fixed"();

-- A stored time as Unix milliseconds, the form SQLite stores every time in: where a statement needs the number
-- (a ledger page mixes the log's millisecond times with the episodes' timestamps), it writes epoch_ms(t), which
-- SQLite's connection reads as t (src/database/sqlite-connection.ts). Inlined by the planner.
CREATE FUNCTION "epoch_ms"(timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (extract(epoch FROM $1) * 1000)::bigint $$;
