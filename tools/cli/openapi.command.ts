import { declareCommand } from './command-declaration';

/** `npm run openapi`'s arguments; openapi.ts reads them. */
export const OPENAPI_COMMAND = declareCommand({
  name: 'openapi',
  invocation: 'npm run openapi --',
  summary:
    'Writes the OpenAPI document from the compiled app (so the Swagger plugin\'s metadata is in it), without listening, ' +
    'with the default configuration and sorted keys, so the committed file changes only when the API does. CI ' +
    'regenerates it and fails on any difference.',
  flags: {},
  positionals: [{ name: 'output', description: 'The file to write.', default: 'openapi.json' }],
  examples: ['npm run openapi', 'npm run openapi -- /tmp/openapi.json'],
});
