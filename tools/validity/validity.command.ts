import { declareCommand } from '../cli/command-declaration';

/** `npm run validity`'s flags; validity.cli.ts reads them. */
export const VALIDITY_COMMAND = declareCommand({
  name: 'validity',
  invocation: 'npm run validity --',
  summary:
    "Prints the reply grader's validity table on every fixture set; the agents that must not score (blind, stuffing, " +
    'do-nothing) against the scripted solutions in both feedback modes; the reward of each harmful step; and the task ' +
    "families' proofs (solvable, varied, not memorisable, hard where they say) over many seeds each; and the shortcut " +
    'agents (most common, best fixed and best one-feature decision, learned on train seeds, played on test seeds) against their target bounds.',
  flags: {
    seeds: { type: 'number', integer: true, min: 1, default: 1000, description: "Seeds per family for the families' proofs." },
    grader: {
      type: 'number',
      integer: true,
      min: 1,
      description: 'Grade the reply fixture sets (canonical and drawn) with this grader version, released or in development, instead of the one new episodes get.',
    },
    failures: { type: 'boolean', description: 'Also list each failing reply with the detail, the reason and the sentence.' },
  },
  examples: ['npm run validity', 'npm run validity -- --seeds 200 --failures', 'npm run validity -- --grader 4 --failures'],
});
