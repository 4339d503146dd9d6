import { declareCommand } from '../cli/command-declaration';

/** `copy-to-postgres`'s flags; copy-to-postgres.ts reads them. */
export const COPY_TO_POSTGRES_COMMAND = declareCommand({
  name: 'copy-to-postgres',
  invocation: 'npm run copy-to-postgres --',
  summary:
    "Copies a stopped SQLite server's database into an empty PostgreSQL database, so a team moves to PostgreSQL with its " +
    'whole history: every table, in one read of the SQLite file (which it keeps locked, so no server starts on it ' +
    'meanwhile) and one PostgreSQL transaction (a failure leaves the target as it was). Migrates the target first with ' +
    "the server's own runner, sets its serial counters after the copied values, writes the ledger checkpoint lines to " +
    "the PostgreSQL server's checkpoint file, then verifies the copy with the server's own code: row counts per table, " +
    "every episode's chain, replay and ledger entries, every tenant ledger. Refuses, changing nothing, a source a " +
    'process has open or not at the newest migration, a target that holds data or another history, and keys it does ' +
    'not hold. Prints a summary on stderr and one JSON line on stdout. See docs/copy-to-postgresql.md.',
  flags: {
    from: {
      type: 'string',
      placeholder: '<file:…>',
      description: "The SQLite database to copy (default: DATABASE_URL, when it is a file: URL). The SQLite server must be stopped.",
    },
    'from-checkpoints': {
      type: 'string',
      placeholder: '<file>',
      description:
        "The SQLite server's ledger checkpoint file (default: LEDGER_CHECKPOINT_FILE when DATABASE_URL is the source, otherwise the source's path + .ledger-checkpoints).",
    },
    'to-checkpoints': {
      type: 'string',
      placeholder: '<file>',
      description:
        "The PostgreSQL server's ledger checkpoint file to write (default: LEDGER_CHECKPOINT_FILE when DATABASE_URL is the target, otherwise data/postgresql.ledger-checkpoints, the PostgreSQL server's default). An existing file with other lines is refused.",
    },
    'skip-verify': {
      type: 'boolean',
      description:
        "Check row counts only; leave out the chain, replay and ledger verification (minutes on a large database). The report says it was left out; verify later with GET /ledger/verify and GET /episodes/{id}/verify.",
    },
    concurrency: {
      type: 'number',
      integer: true,
      min: 1,
      max: 64,
      default: 8,
      placeholder: '<n>',
      description: 'Episodes verified at once.',
    },
  },
  environment: {
    TARGET_DATABASE_URL:
      'The PostgreSQL database to copy into, postgresql://user:password@host:5432/database (or TARGET_DATABASE_URL_FILE, a file holding it). Default: DATABASE_URL, when it names PostgreSQL. Never a flag: a password on the command line is visible to every user of the machine.',
    DATABASE_URL: 'Either server\'s: a file: URL is the default source, a postgresql:// URL the default target (DATABASE_URL_FILE too).',
    CHAIN_KEY:
      "The chain key the SQLite data was made with (or CHAIN_KEY_FILE; retired ones in CHAIN_RETIRED_KEYS_FILE); without it, in open mode, the source's <db>.chain-key file. The PostgreSQL server must be given the same key.",
    PRIVATE_SPLIT_KEY: 'With PRIVATE_SPLIT_RETIRED_KEYS_FILE: the keys private-split episodes are drawn again with to be verified.',
    LEDGER_CHECKPOINT_FILE: "The checkpoint file of DATABASE_URL's server (see --from-checkpoints and --to-checkpoints).",
  },
  examples: [
    'TARGET_DATABASE_URL_FILE=/run/secrets/pg-url npm run copy-to-postgres -- --from file:./data/supportdesk.db',
    'DATABASE_URL=postgresql://supportdesk@db.internal:5432/supportdesk npm run copy-to-postgres -- --from file:/srv/supportdesk/supportdesk.db --to-checkpoints /srv/supportdesk/postgresql.ledger-checkpoints',
  ],
});
