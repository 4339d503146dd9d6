import { declareCommand } from '../cli/command-declaration';

/** `npm run restore`'s flags; restore.ts reads them. */
export const RESTORE_COMMAND = declareCommand({
  name: 'restore',
  invocation: 'npm run restore --',
  summary:
    "Puts a backup made by npm run backup in place of a stopped server's database. Refuses to replace an existing " +
    'database without --force, and always refuses one a process has open. Copies the backup beside the target under ' +
    "a temporary name and checks the copy against the backup's .sha256 file; then moves the ledger checkpoint file " +
    "aside (kept as evidence) and installs the backup's, removes the target's stale -wal and -shm files, and renames " +
    'the copy into place. Prints what it restored and the keys the restored data needs. Start the server afterwards: ' +
    'it applies newer migrations at start. See docs/backup.md.',
  flags: {
    from: { type: 'string', placeholder: '<file>', description: 'The backup file (required); its .sha256 and .ledger-checkpoints files beside it.' },
    to: { type: 'string', placeholder: '<file>', description: "The database file to restore into (default: DATABASE_URL's file)." },
    force: { type: 'boolean', description: 'Replace an existing database (the server must be stopped).' },
  },
  environment: {
    DATABASE_URL: "The server's database: the default target, and the database LEDGER_CHECKPOINT_FILE belongs to.",
    LEDGER_CHECKPOINT_FILE:
      "The server's ledger checkpoint file, used when the target is DATABASE_URL's file (otherwise: the target's path + .ledger-checkpoints).",
    CHAIN_KEY: 'With CHAIN_KEY_FILE, CHAIN_RETIRED_KEYS_FILE, PRIVATE_SPLIT_KEY and PRIVATE_SPLIT_RETIRED_KEYS_FILE: the keys the restored data is checked against (never printed).',
  },
  examples: [
    'npm run restore -- --from backups/supportdesk.db --to data/restored.db',
    'DATABASE_URL=file:/srv/supportdesk/supportdesk.db npm run restore -- --from /var/backups/supportdesk/nightly.db --force',
  ],
});
