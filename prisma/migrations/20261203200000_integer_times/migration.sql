-- Every stored time as Unix milliseconds, an integer, instead of ISO-8601 text: 6 bytes where
-- "2026-12-03T18:27:12.653+00:00" took 29, in the rows and in every index that orders by time (the episodes' listing
-- indexes above all). The server writes this form from this release on (the Prisma adapter's "unixepoch-ms"
-- timestamp format; src/database/sqlite-timestamp.ts for statements outside Prisma), so each column holds one form
-- and integer order is time order. The instants are the same to the millisecond, which is what the chains, the
-- ledger and the seals commit to (they MAC the ISO form of the instant, not the stored text), so everything still
-- verifies. Text that is not a time (no release writes one; only a tampered file holds it) is left as it is.
--
-- ledger_entries is append-only: its UPDATE trigger is dropped for the conversion and made again, as migration
-- 20261201170000_tenant_ledger made it.
DROP TRIGGER "ledger_entries_no_update";

UPDATE "tenants" SET "created_at" = CASE typeof("created_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("created_at", 'subsec') * 1000) AS INTEGER), "created_at") ELSE "created_at" END,
    "deleting_at" = CASE typeof("deleting_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("deleting_at", 'subsec') * 1000) AS INTEGER), "deleting_at") ELSE "deleting_at" END;
UPDATE "api_keys" SET "created_at" = CASE typeof("created_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("created_at", 'subsec') * 1000) AS INTEGER), "created_at") ELSE "created_at" END,
    "last_used_at" = CASE typeof("last_used_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("last_used_at", 'subsec') * 1000) AS INTEGER), "last_used_at") ELSE "last_used_at" END,
    "revoked_at" = CASE typeof("revoked_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("revoked_at", 'subsec') * 1000) AS INTEGER), "revoked_at") ELSE "revoked_at" END;
UPDATE "task_versions" SET "synced_at" = CASE typeof("synced_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("synced_at", 'subsec') * 1000) AS INTEGER), "synced_at") ELSE "synced_at" END;
UPDATE "episodes" SET "created_at" = CASE typeof("created_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("created_at", 'subsec') * 1000) AS INTEGER), "created_at") ELSE "created_at" END,
    "updated_at" = CASE typeof("updated_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("updated_at", 'subsec') * 1000) AS INTEGER), "updated_at") ELSE "updated_at" END;
UPDATE "step_requests" SET "created_at" = CASE typeof("created_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("created_at", 'subsec') * 1000) AS INTEGER), "created_at") ELSE "created_at" END;
UPDATE "admin_events" SET "at" = CASE typeof("at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("at", 'subsec') * 1000) AS INTEGER), "at") ELSE "at" END;
UPDATE "legacy_chain_seals" SET "created_at" = CASE typeof("created_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("created_at", 'subsec') * 1000) AS INTEGER), "created_at") ELSE "created_at" END;
UPDATE "ledger_entries" SET "created_at" = CASE typeof("created_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("created_at", 'subsec') * 1000) AS INTEGER), "created_at") ELSE "created_at" END;
UPDATE "runs" SET "created_at" = CASE typeof("created_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("created_at", 'subsec') * 1000) AS INTEGER), "created_at") ELSE "created_at" END,
    "completed_at" = CASE typeof("completed_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("completed_at", 'subsec') * 1000) AS INTEGER), "completed_at") ELSE "completed_at" END;
UPDATE "run_cells" SET "started_at" = CASE typeof("started_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("started_at", 'subsec') * 1000) AS INTEGER), "started_at") ELSE "started_at" END,
    "finished_at" = CASE typeof("finished_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("finished_at", 'subsec') * 1000) AS INTEGER), "finished_at") ELSE "finished_at" END;
UPDATE "run_regrades" SET "created_at" = CASE typeof("created_at") WHEN 'text' THEN COALESCE(CAST(ROUND(unixepoch("created_at", 'subsec') * 1000) AS INTEGER), "created_at") ELSE "created_at" END;

CREATE TRIGGER "ledger_entries_no_update" BEFORE UPDATE ON "ledger_entries"
BEGIN
    SELECT RAISE(ABORT, 'ledger_entries is append-only: rows cannot be updated');
END;
