-- What several replicas of the server share through the database (docs/replicas.md): the open /mcp sessions, so
-- that any replica serves them, and the rate limits' token buckets (used on PostgreSQL; a SQLite server keeps them in
-- memory). New tables only: a server of the previous release ignores them, so both can serve during an upgrade.

-- CreateTable
CREATE TABLE "protocol_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "key_id" TEXT,
    "variant" TEXT NOT NULL,
    "bound_episode_id" TEXT,
    "created_at" DATETIME NOT NULL,
    "last_used_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "rate_buckets" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "tokens" REAL NOT NULL,
    "at" REAL NOT NULL
);

-- CreateIndex
CREATE INDEX "protocol_sessions_tenant_id_idx" ON "protocol_sessions"("tenant_id");

-- CreateIndex
CREATE INDEX "protocol_sessions_key_id_idx" ON "protocol_sessions"("key_id");

-- CreateIndex
CREATE INDEX "protocol_sessions_last_used_at_idx" ON "protocol_sessions"("last_used_at");

-- CreateIndex
CREATE INDEX "rate_buckets_at_idx" ON "rate_buckets"("at");

