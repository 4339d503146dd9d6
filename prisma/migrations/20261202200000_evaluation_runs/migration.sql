-- AlterTable
ALTER TABLE "episodes" ADD COLUMN "run_id" TEXT;
ALTER TABLE "episodes" ADD COLUMN "run_trial" INTEGER;

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
    "created_at" DATETIME NOT NULL,
    "completed_at" DATETIME,

    PRIMARY KEY ("id", "tenant_id"),
    CONSTRAINT "runs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
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
    "started_at" DATETIME,
    "finished_at" DATETIME,
    "wall_ms" INTEGER,
    "input_tokens" INTEGER,
    "output_tokens" INTEGER,

    PRIMARY KEY ("run_id", "tenant_id", "task_id", "seed", "trial"),
    CONSTRAINT "run_cells_run_id_tenant_id_fkey" FOREIGN KEY ("run_id", "tenant_id") REFERENCES "runs" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "run_regrades" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "grader_version" INTEGER NOT NULL,
    "episode_count" INTEGER NOT NULL,
    "changed_count" INTEGER NOT NULL,
    "created_at" DATETIME NOT NULL,

    PRIMARY KEY ("id", "tenant_id"),
    CONSTRAINT "run_regrades_run_id_tenant_id_fkey" FOREIGN KEY ("run_id", "tenant_id") REFERENCES "runs" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
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

    PRIMARY KEY ("regrade_id", "tenant_id", "task_id", "seed", "trial"),
    CONSTRAINT "run_regrade_results_regrade_id_tenant_id_fkey" FOREIGN KEY ("regrade_id", "tenant_id") REFERENCES "run_regrades" ("id", "tenant_id") ON DELETE RESTRICT ON UPDATE CASCADE
);

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

