-- Agent keys name their episodes in their own space (issue 21): an episode_id another key of the tenant already
-- holds is stored under a fresh id, with the name the key chose kept as its alias, unique per key.
-- AlterTable
ALTER TABLE "episodes" ADD COLUMN "alias" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "episodes_tenant_id_api_key_id_alias_key" ON "episodes"("tenant_id", "api_key_id", "alias");

