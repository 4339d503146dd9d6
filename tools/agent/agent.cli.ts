import { readCommandLine, refuseCommandLine } from '../cli/command-line';
import { AGENT_COMMAND } from './agent.command';
import { runAgent } from './agent-runner';
import { UnreachableError } from './http-retry';
import { formatAgentReport } from './report-table';

/** `npm run agent`: see agent.command.ts, or `npm run agent -- --help`. */
async function main(): Promise<number> {
  const { values } = readCommandLine(AGENT_COMMAND);
  if (values.split !== undefined && values.canonical) refuseCommandLine(AGENT_COMMAND, '--split draws generated instances; --canonical plays the fixed ones');
  const modelBaseUrl = process.env.API_BASE_URL;
  const modelName = process.env.MODEL_NAME;
  if (!modelBaseUrl || !modelName) refuseCommandLine(AGENT_COMMAND, 'set API_BASE_URL (an OpenAI-compatible …/v1 endpoint) and MODEL_NAME');

  const report = await runAgent(
    {
      url: values.url.replace(/\/+$/, ''),
      envApiKey: process.env.SUPPORTDESK_API_KEY,
      readerApiKey: process.env.SUPPORTDESK_READER_KEY || undefined,
      modelBaseUrl,
      modelName,
      modelApiKey: process.env.API_KEY ?? process.env.HF_TOKEN,
      tasks: (values.families ?? values.task ?? 'all').split(','),
      split: values.split,
      variant: values.canonical ? 'canonical' : 'generated',
      trials: values.trials,
      threshold: values.threshold,
      feedback: values.feedback,
      showScores: values['show-scores'],
    },
    (line) => console.log(line),
  );
  console.log(`\n${formatAgentReport(report, values.threshold)}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UnreachableError ? error.message : `agent run failed: ${(error as Error).message}`);
    process.exit(error instanceof UnreachableError ? 3 : 1);
  },
);
