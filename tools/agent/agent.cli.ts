import { parseArgs } from 'node:util';
import { runAgent } from './agent-runner';
import { UnreachableError } from './http-retry';
import { formatAgentReport } from './report-table';

/**
 * `npm run agent -- --families <id,…|all> [--split train|test] [--trials k] [--url http://localhost:7860] [--threshold 1.0] [--feedback final|dense] [--show-scores] [--canonical]`
 * Model from API_BASE_URL, MODEL_NAME and API_KEY (or HF_TOKEN); SupportDesk key from SUPPORTDESK_API_KEY.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      task: { type: 'string' },
      families: { type: 'string' },
      split: { type: 'string' },
      canonical: { type: 'boolean', default: false },
      trials: { type: 'string', default: '1' },
      url: { type: 'string', default: 'http://localhost:7860' },
      threshold: { type: 'string', default: '1' },
      feedback: { type: 'string', default: 'final' },
      'show-scores': { type: 'boolean', default: false },
    },
  });
  const trials = Number(values.trials);
  const threshold = Number(values.threshold);
  if (!Number.isInteger(trials) || trials < 1 || trials > 100) return usage('--trials must be a whole number from 1 to 100');
  if (!(threshold >= 0 && threshold <= 1)) return usage('--threshold must be between 0 and 1');
  const split = values.split;
  if (split !== undefined && split !== 'train' && split !== 'test') return usage('--split must be train or test');
  if (split !== undefined && values.canonical) return usage('--split draws generated instances; --canonical plays the fixed ones');
  const feedback = values.feedback;
  if (feedback !== 'final' && feedback !== 'dense') return usage('--feedback must be final (evaluation, the default) or dense');
  const modelBaseUrl = process.env.API_BASE_URL;
  const modelName = process.env.MODEL_NAME;
  if (!modelBaseUrl || !modelName) return usage('set API_BASE_URL (an OpenAI-compatible …/v1 endpoint) and MODEL_NAME');

  const report = await runAgent(
    {
      url: values.url!.replace(/\/+$/, ''),
      envApiKey: process.env.SUPPORTDESK_API_KEY,
      modelBaseUrl,
      modelName,
      modelApiKey: process.env.API_KEY ?? process.env.HF_TOKEN,
      // --task is the earlier name of --families.
      tasks: (values.families ?? values.task ?? 'all').split(','),
      split,
      variant: values.canonical ? 'canonical' : 'generated',
      trials,
      threshold,
      feedback,
      showScores: values['show-scores'],
    },
    (line) => console.log(line),
  );
  console.log(`\n${formatAgentReport(report, threshold)}`);
  return 0;
}

function usage(message: string): number {
  console.error(`${message}\nusage: npm run agent -- --families <id,…|all> [--split train|test] [--trials k] [--url http://localhost:7860] [--threshold 1.0] [--feedback final|dense] [--show-scores] [--canonical]`);
  return 2;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UnreachableError ? error.message : `agent run failed: ${(error as Error).message}`);
    process.exit(error instanceof UnreachableError ? 3 : 1);
  },
);
