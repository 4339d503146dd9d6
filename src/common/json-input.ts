/*
 * The checks every transport (HTTP bodies, /ws messages, /mcp messages) runs on parsed JSON before anything
 * else looks at it. Validators, canonical JSON and the hash chain all recurse, SQLite stores UTF-8, and copying
 * a value onto an object can reach its prototype: a value too deep, holding a lone surrogate or a prototype key
 * must be refused at the door, not fail deep inside (a stack overflow answered as an internal error, a stored
 * row that later fails its own hash, a polluted built-in shared by every tenant).
 */

/** No message of this API nests deeper than a few levels. */
export const MAX_NESTING = 16;

/** Why a parsed JSON value is refused (`what` names it in the message), or null when it is acceptable. */
export function jsonInputProblem(value: unknown, what: string): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (!node.isWellFormed()) return loneSurrogate(what);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > MAX_NESTING) return `${what} is nested more than ${MAX_NESTING} levels deep`;
    for (const [key, child] of Object.entries(node)) {
      if (!key.isWellFormed()) return loneSurrogate(what);
      const poisoned = prototypeKey(key, child);
      if (poisoned) return `${what} contains the key "${poisoned}", which no message of this API uses (it reaches object prototypes)`;
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

const loneSurrogate = (what: string) => `${what} contains a lone UTF-16 surrogate (\\ud800-\\udfff), which is not text`;

/**
 * `__proto__`, or `constructor` holding a `prototype` (the two shapes secure-json-parse refuses): JSON keeps
 * them as plain keys, but a validator, a spread or a merge that copies them onto an object changes prototypes.
 */
function prototypeKey(key: string, value: unknown): string | null {
  if (key === '__proto__') return key;
  if (key === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype')) {
    return 'constructor.prototype';
  }
  return null;
}
