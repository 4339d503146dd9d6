-- A tenant's deletion runs a batch of episodes per write (src/episodes/purge/tenant-deletion.ts): this marks a tenant
-- whose deletion has begun, so that a deletion cut short is finished at the next start.

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN "deleting_at" DATETIME;

