import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../durable-files';
import { OperationRefused } from '../operation-refused';

/**
 * The ledger checkpoints go with the ledgers. The SQLite server kept signed checkpoints of every ledger's head in a
 * file beside its database; the PostgreSQL server reads its own file (LEDGER_CHECKPOINT_FILE, by default
 * data/postgresql.ledger-checkpoints) and holds each ledger to the newest checkpoint there, refusing to write new
 * ones for a ledger that no longer reaches its last. Copied over verbatim, the lines keep a cut or rewound ledger
 * detectable across the move, and the PostgreSQL server checkpoints on from where the SQLite one stopped. The SQLite
 * server is stopped, so no line names an entry past the copied heads.
 */
export interface CheckpointTransfer {
  from: string;
  to: string;
  /** Checkpoint lines carried over (0: the source had none yet). */
  lines: number;
  /** The target file already held exactly these lines (a second run after a copy whose verification failed). */
  alreadyThere: boolean;
  text: string;
}

/** Decided before anything is copied: an existing target file with other lines is another database's evidence. */
export function planCheckpointTransfer(from: string, to: string): CheckpointTransfer {
  const text = existsSync(from) ? readFileSync(from, 'utf8') : '';
  const lines = text.split('\n').filter((line) => line.trim() !== '').length;
  const existing = existsSync(to) ? readFileSync(to, 'utf8') : null;
  if (existing !== null && existing.trim() !== '' && existing !== text) {
    throw new OperationRefused(
      `the PostgreSQL server's checkpoint file ${to} already holds other checkpoints (another database's, or an earlier server's): ` +
        'move it aside (keep it: it is evidence), or name another file with --to-checkpoints; nothing was changed',
    );
  }
  return { from, to, lines, alreadyThere: existing === text, text };
}

/** After the copy committed: the lines in place, written whole or not at all, readable by this user only. */
export function installCheckpoints(transfer: CheckpointTransfer): void {
  if (transfer.alreadyThere || transfer.lines === 0) return;
  mkdirSync(dirname(transfer.to), { recursive: true, mode: 0o700 });
  writeFileAtomically(transfer.to, transfer.text);
}
