/**
 * Empties the `public` schema (the server's: its tables, their sequences, triggers and indexes, its functions) in
 * the transaction that then loads the dump, so the database ends up holding the backup and nothing else, and a
 * failure anywhere leaves it as it was. `pg_restore --clean` would drop only what the dump holds: a table that a
 * newer migration created would stay, beside a `_prisma_migrations` that says it was never made, and the server's
 * next start would fail re-creating it. The schema itself is kept (not dropped and re-created) with its owner and
 * grants, which a role that does not own it could not restore. Members of extensions are extensions' to drop.
 */
export const EMPTY_PUBLIC_SCHEMA = `DO $$
DECLARE
  item record;
BEGIN
  FOR item IN
    SELECT format('DROP %s IF EXISTS public.%I CASCADE',
                  CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE'
                                 WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, c.relname) AS statement
      FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
  LOOP
    EXECUTE item.statement;
  END LOOP;
  FOR item IN
    SELECT format('DROP %s IF EXISTS %s CASCADE', CASE p.prokind WHEN 'a' THEN 'AGGREGATE' WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END,
                  p.oid::regprocedure) AS statement
      FROM pg_proc p
     WHERE p.pronamespace = 'public'::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  LOOP
    EXECUTE item.statement;
  END LOOP;
  FOR item IN
    SELECT format('DROP %s IF EXISTS public.%I CASCADE', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.typname) AS statement
      FROM pg_type t
     WHERE t.typnamespace = 'public'::regnamespace
       AND (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c'))
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')
  LOOP
    EXECUTE item.statement;
  END LOOP;
END
$$;`;
