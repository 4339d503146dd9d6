import { declareCommand } from '../cli/command-declaration';
import { DEFAULT_STEP_PAGES } from './backup-defaults';

/** `npm run backup`'s flags; backup.ts reads them. */
export const BACKUP_COMMAND = declareCommand({
  name: 'backup',
  invocation: 'npm run backup --',
  summary:
    "Copies the server's database while it serves: one snapshot holding every transaction committed before the " +
    'backup began (every step acknowledged by then). On SQLite, through its online backup API, a few pages a step, ' +
    'checked with quick_check; on PostgreSQL (DATABASE_URL=postgresql://…), with pg_dump --format=custom reading a ' +
    'snapshot exported by a transaction that also reads the summary, checked by reading it back with pg_restore ' +
    '(needs the postgresql-client package). Writes the copy under a temporary name and renames it into place once ' +
    "checked; beside it <file>.sha256 (sha256sum format) and <file>.ledger-checkpoints (the checkpoint lines of the " +
    "ledgers' heads the snapshot reaches). Prints a summary on stderr and one JSON line on stdout. See docs/backup.md.",
  flags: {
    to: { type: 'string', placeholder: '<file>', description: 'The backup file to write (required).' },
    force: { type: 'boolean', description: 'Replace an existing backup of that name.' },
    // No declared default: on PostgreSQL the flag is refused when given, so the tool must see whether it was.
    'step-pages': {
      type: 'number',
      integer: true,
      min: 1,
      max: 1_000_000,
      placeholder: '<n>',
      description: `SQLite only: database pages copied per step of the backup API (default: ${DEFAULT_STEP_PAGES}).`,
    },
    'full-check': {
      type: 'boolean',
      description: 'SQLite only: check the copy with integrity_check (indexes against tables too) instead of quick_check.',
    },
  },
  environment: {
    DATABASE_URL: "The server's database, read as the server reads it (default: file:./data/supportdesk.db; postgresql://… for PostgreSQL).",
    LEDGER_CHECKPOINT_FILE:
      "The server's ledger checkpoint file (default: the database's path + .ledger-checkpoints; on PostgreSQL data/postgresql.ledger-checkpoints).",
  },
  examples: [
    'npm run backup -- --to backups/supportdesk.db',
    'DATABASE_URL=file:/srv/supportdesk/supportdesk.db npm run backup -- --to /var/backups/supportdesk/nightly.db --force',
    'DATABASE_URL=postgresql://supportdesk@db.internal/supportdesk npm run backup -- --to /var/backups/supportdesk/nightly.dump --force',
  ],
});
