import { declareCommand } from '../cli/command-declaration';

/** `npm run restore`'s flags; restore.ts reads them. */
export const RESTORE_COMMAND = declareCommand({
  name: 'restore',
  invocation: 'npm run restore --',
  summary:
    "Puts a backup made by npm run backup in place of a stopped server's database. Refuses to replace an existing " +
    'database without --force, and always refuses one in use. Checks the backup and its checkpoint lines against the ' +
    "backup's .sha256 file, moves the ledger checkpoint file aside (kept as evidence) and installs the backup's. On " +
    'SQLite, copies the backup beside the target under a temporary name, checks the copy, removes the stale -wal and ' +
    '-shm files, and renames the copy into place (a process with the file open is refused). On PostgreSQL ' +
    "(DATABASE_URL=postgresql://…), loads the dump into DATABASE_URL's database in one transaction that first empties " +
    'its public schema, with pg_restore and psql (the postgresql-client package); refused while another client is ' +
    'connected to the database; a failed load changes nothing. Prints what it restored and the keys the restored data ' +
    'needs. Start the server afterwards: it applies newer migrations at start. See docs/backup.md.',
  flags: {
    from: { type: 'string', placeholder: '<file>', description: 'The backup file (required); its .sha256 and .ledger-checkpoints files beside it.' },
    to: {
      type: 'string',
      placeholder: '<file>',
      description: "SQLite only: the database file to restore into (default: DATABASE_URL's file). On PostgreSQL, DATABASE_URL's database.",
    },
    force: { type: 'boolean', description: 'Replace an existing database, or a PostgreSQL database that holds tables (the server must be stopped).' },
  },
  environment: {
    DATABASE_URL: "The server's database: the default target (on PostgreSQL, the only one), and the database LEDGER_CHECKPOINT_FILE belongs to.",
    LEDGER_CHECKPOINT_FILE:
      "The server's ledger checkpoint file, used when the target is DATABASE_URL's database (otherwise: the target's path + .ledger-checkpoints; on PostgreSQL by default data/postgresql.ledger-checkpoints).",
    CHAIN_KEY: 'With CHAIN_KEY_FILE, CHAIN_RETIRED_KEYS_FILE, PRIVATE_SPLIT_KEY and PRIVATE_SPLIT_RETIRED_KEYS_FILE: the keys the restored data is checked against (never printed).',
  },
  examples: [
    'npm run restore -- --from backups/supportdesk.db --to data/restored.db',
    'DATABASE_URL=file:/srv/supportdesk/supportdesk.db npm run restore -- --from /var/backups/supportdesk/nightly.db --force',
    'DATABASE_URL=postgresql://supportdesk@db.internal/supportdesk npm run restore -- --from /var/backups/supportdesk/nightly.dump --force',
  ],
});
