import { declareCommand } from '../cli/command-declaration';

/** `npm run architecture:metrics`'s arguments; metrics.ts reads them. */
export const METRICS_COMMAND = declareCommand({
  name: 'architecture:metrics',
  invocation: 'npm run architecture:metrics --',
  summary:
    "Prints the shape of the server's import graph (ARCHITECTURE.md): floors (the longest chain of folders importing " +
    'folders), back-edges against the layers of tools/architecture/layers.cjs, import cycles, the longest chain of ' +
    'files and the largest hand-written file.',
  flags: {},
  positionals: [{ name: 'folder', description: 'The repository checkout to measure, e.g. an older one for "before" figures.', default: '.' }],
  examples: ['npm run architecture:metrics', 'npm run architecture:metrics -- ../supportdesk-before'],
});
