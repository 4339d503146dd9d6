import { CHAIN_GENESIS, CHAIN_SCHEMES, chainLink, chainStart, legacySeal, type ChainKey, type ChainedRow, type EpisodeMetadata } from './hash-chain';

/** An episode's chain as stored: its scheme, the key it names, its head and metadata, and its seal if legacy. */
export interface StoredChain {
  scheme: string;
  keyId: string | null;
  head: string;
  metadata: EpisodeMetadata;
  seal: { keyId: string; sealedSteps: number; sealedHead: string; seal: string } | null;
}

export type LoggedRow = ChainedRow & { hash: string };

export interface ChainFinding {
  /** The step where the chain first breaks (0: the episode's metadata or seal; n + 1: after the last row). */
  index: number;
  problem: string;
}

/**
 * Recomputes an episode's chain from its stored rows and metadata with the keys this server holds; null when
 * every link matches, otherwise where and why it first breaks.
 */
export function verifyChain(chain: StoredChain, rows: LoggedRow[], keyById: (id: string) => ChainKey | null): ChainFinding | null {
  for (const [i, row] of rows.entries()) {
    if (row.stepIndex !== i + 1) return { index: i + 1, problem: `step ${i + 1} is missing from the log` };
  }
  if (chain.scheme === CHAIN_SCHEMES.keyed) {
    const key = chain.keyId === null ? null : keyById(chain.keyId);
    if (!key) return { index: 0, problem: missingKey(chain.keyId) };
    return walk(chain, rows, chainStart(key, chain.metadata), () => key);
  }
  if (chain.scheme !== CHAIN_SCHEMES.legacy) return { index: 0, problem: `unknown chain scheme "${chain.scheme}"` };
  const seal = chain.seal;
  if (!seal) {
    return { index: 0, problem: 'the episode claims the unkeyed pre-HMAC chain but was never sealed: it was not chained by this server' };
  }
  const key = keyById(seal.keyId);
  if (!key) return { index: 0, problem: missingKey(seal.keyId) };
  if (legacySeal(key, chain.metadata, seal.sealedSteps, seal.sealedHead) !== seal.seal) {
    return { index: 0, problem: "the seal does not match the episode's metadata or its sealed rows" };
  }
  if (rows.length < seal.sealedSteps) return { index: rows.length + 1, problem: 'sealed rows are missing from the log' };
  return walk(chain, rows, CHAIN_GENESIS, (step) => (step > seal.sealedSteps ? key : null), seal);
}

function walk(
  chain: StoredChain,
  rows: LoggedRow[],
  start: string,
  keyFor: (step: number) => ChainKey | null,
  seal?: { sealedSteps: number; sealedHead: string },
): ChainFinding | null {
  let previous = start;
  if (seal?.sealedSteps === 0 && seal.sealedHead !== previous) return { index: 0, problem: 'the sealed chain head does not match' };
  for (const row of rows) {
    if (row.hash === '') return { index: row.stepIndex, problem: 'row was written before hash chaining existed' };
    if (row.hash !== chainLink(keyFor(row.stepIndex), previous, row)) return { index: row.stepIndex, problem: 'row does not match its hash' };
    previous = row.hash;
    if (seal && row.stepIndex === seal.sealedSteps && previous !== seal.sealedHead) {
      return { index: row.stepIndex, problem: 'the rows before the seal no longer hash to the sealed head' };
    }
  }
  if (chain.head !== previous) {
    return { index: rows.length + 1, problem: "the episode's chain head is not the last logged row: rows are missing" };
  }
  return null;
}

function missingKey(id: string | null): string {
  return `the chain was computed with key ${id ?? '(none)'}, which this server does not hold (add it to CHAIN_RETIRED_KEYS_FILE)`;
}
