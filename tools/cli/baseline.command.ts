import { declareCommand } from './command-declaration';

/** `npm run baseline`'s flags; baseline.ts reads them. */
export const BASELINE_COMMAND = declareCommand({
  name: 'baseline',
  invocation: 'npm run baseline --',
  summary:
    'Runs the built-in heuristic policy on every task family and prints the score table. By default it plays in the ' +
    'process on a throw-away database, so runs never mix with served episodes and print the same table every time.',
  flags: {
    url: { type: 'string', placeholder: '<url>', description: 'Play against this running server through the generated client instead (e.g. http://localhost:7860); --database-url is then unused.' },
    'database-url': { type: 'string', placeholder: '<file:…>', description: 'Keep the episodes in this database (migrated first), e.g. file:./data/baseline.db, instead of a throw-away one.' },
  },
  environment: {
    SUPPORTDESK_API_KEY: "The server's API key, with --url, if it requires keys: an agent key.",
    SUPPORTDESK_READER_KEY:
      'With --url, a reader key of the same tenant: an agent key is never shown the grades of test-split episodes, so the test column is read with this key; without it the column says withheld.',
  },
  examples: ['npm run baseline', 'npm run baseline -- --url http://localhost:7860', 'npm run baseline -- --database-url file:./data/baseline.db'],
});
