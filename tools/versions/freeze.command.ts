import { declareCommand } from '../cli/command-declaration';

/** `npm run versions:freeze`'s flags; freeze.cli.ts reads them. */
export const FREEZE_COMMAND = declareCommand({
  name: 'versions:freeze',
  invocation: 'npm run versions:freeze --',
  summary:
    'Freezes a NEW grader version (its corpus under tools/versions/corpus, the hashes of its verdicts and sources) or the NEW ' +
    'generator versions of the families, in tools/versions/released-versions.json. Refuses to rewrite the entry of a version ' +
    'already frozen: a released version never changes; a change is a new version.',
  flags: {
    grader: { type: 'number', integer: true, min: 1, description: 'The grader version to freeze (registered in src/engine/graders, not frozen yet).' },
    generators: { type: 'boolean', description: "Freeze every family's generator version that is not frozen yet." },
  },
  examples: ['npm run versions:freeze -- --grader 3', 'npm run versions:freeze -- --generators'],
});
