import type { FlagValues } from '../cli/command-declaration';
import type { AGENT_COMMAND } from './agent.command';
import type { CreateRunBody } from './runs-api';

export type AgentFlagValues = FlagValues<(typeof AGENT_COMMAND)['flags']>;

/** What the environment may give in place of a flag (the OpenEnv variables, and the keys kept out of `ps`). */
export interface AgentEnvironment {
  API_BASE_URL?: string;
  MODEL_NAME?: string;
  API_KEY?: string;
  HF_TOKEN?: string;
  SUPPORTDESK_API_KEY?: string;
  SUPPORTDESK_READER_KEY?: string;
}

export interface AgentSettings {
  /** The SupportDesk server, without a trailing slash. */
  url: string;
  agentKey?: string;
  readerKey?: string;
  /** Null when resuming without --model and MODEL_NAME: the run's own model is asked. */
  modelName: string | null;
  modelUrl: string;
  modelKey?: string;
  modelTimeoutMs: number;
  modelRetries: number;
  concurrency: number;
  showScores: boolean;
  /** Resume this run, or create one from this body (its name and agent are filled in once the model is known). */
  run: { resume: string } | { create: Omit<CreateRunBody, 'name' | 'agent' | 'model'> & { name?: string } };
}

/** The flags only a new run takes: with --run they are refused, since the run already fixed what they say. */
const NEW_RUN_FLAGS = ['name', 'tasks', 'families', 'split', 'canonical', 'seed-count', 'seeds', 'trials', 'threshold', 'feedback'] as const;

/**
 * The settings the parsed flags and the environment make, or why they do not make any (said as the command line's
 * mistake: the caller exits 2 with it). Pure, so every combination is tested without a server.
 */
export function resolveSettings(values: AgentFlagValues, env: AgentEnvironment): { settings: AgentSettings } | { error: string } {
  const modelUrl = values['model-url'] ?? nonEmpty(env.API_BASE_URL);
  if (!modelUrl) return { error: 'give the model endpoint: --model-url (or API_BASE_URL), an OpenAI-compatible …/v1 URL' };
  if (!/^https?:\/\//.test(modelUrl)) return { error: `--model-url must be an http(s) URL, got '${modelUrl}'` };
  const modelName = values.model ?? nonEmpty(env.MODEL_NAME) ?? null;
  const common = {
    url: values.url.replace(/\/+$/, ''),
    agentKey: nonEmpty(env.SUPPORTDESK_API_KEY),
    readerKey: values['reader-key'] ?? nonEmpty(env.SUPPORTDESK_READER_KEY),
    modelName,
    modelUrl,
    modelKey: nonEmpty(env.API_KEY) ?? nonEmpty(env.HF_TOKEN),
    modelTimeoutMs: Math.round(values['model-timeout'] * 1000),
    modelRetries: values['model-retries'],
    concurrency: values.concurrency,
    showScores: values['show-scores'],
  };

  if (values.run !== undefined) {
    const given = NEW_RUN_FLAGS.filter((flag) => values[flag] !== undefined && values[flag] !== false);
    if (given.length) return { error: `--run resumes a run as it was created: ${given.map((flag) => `--${flag}`).join(', ')} cannot change it` };
    return { settings: { ...common, run: { resume: values.run } } };
  }

  if (modelName === null) return { error: 'give the model: --model (or MODEL_NAME)' };
  if (values.tasks !== undefined && values.families !== undefined && values.tasks !== values.families) {
    return { error: '--tasks and --families are the same flag: give one' };
  }
  if (values.canonical && values.split !== undefined && values.split !== 'canonical') return { error: `--canonical is --split canonical, not --split ${values.split}` };
  const split = values.canonical ? 'canonical' : (values.split ?? 'test');
  const feedback = values.feedback ?? 'final';
  if (split === 'test' && feedback === 'dense') return { error: 'a test run is played with feedback final only (--feedback dense is for train and canonical runs)' };
  if (values.seeds !== undefined && values['seed-count'] !== undefined) return { error: '--seeds and --seed-count exclude each other' };
  const seeds = values.seeds === undefined ? undefined : parseSeeds(values.seeds);
  if (seeds === null) return { error: `--seeds must be whole numbers from 0 separated by commas, got '${values.seeds}'` };

  const tasks = values.tasks ?? values.families ?? 'all';
  const families = tasks === 'all' ? ('all' as const) : tasks.split(',').map((id) => id.trim()).filter(Boolean);
  if (families !== 'all' && families.length === 0) return { error: '--tasks needs task ids or all' };
  return {
    settings: {
      ...common,
      run: {
        create: {
          ...(values.name !== undefined ? { name: values.name } : {}),
          families,
          split,
          ...(seeds ? { seeds } : { seed_count: values['seed-count'] ?? 1 }),
          trials: values.trials ?? 1,
          feedback,
          ...(values.threshold !== undefined ? { success_threshold: values.threshold } : {}),
        },
      },
    },
  };
}

function parseSeeds(text: string): number[] | null {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d{1,10}$/.test(part))) return null;
  const seeds = parts.map(Number);
  return seeds.every((seed) => seed <= 2_147_483_647) && new Set(seeds).size === seeds.length ? seeds : null;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The command that resumes the run with these settings (keys stay in the environment, never on the line). */
export function resumeCommand(settings: Pick<AgentSettings, 'url' | 'modelUrl' | 'concurrency'>, runId: string): string {
  const words = ['npm run agent --', '--run', runId, '--url', settings.url, '--model-url', settings.modelUrl];
  if (settings.concurrency !== 4) words.push('--concurrency', String(settings.concurrency));
  return words.map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) || word === 'npm run agent --' ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
