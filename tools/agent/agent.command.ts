import { declareCommand } from '../cli/command-declaration';

/** `npm run agent`'s flags; agent.cli.ts reads them. */
export const AGENT_COMMAND = declareCommand({
  name: 'agent',
  invocation: 'npm run agent --',
  summary:
    'Plays an LLM (any OpenAI-compatible chat-completions endpoint, tool calls mapped to the actions) against a running ' +
    'SupportDesk server, logs every episode in the OpenEnv evaluation format, and ends with a table of per-task scores ' +
    'and pass^k for k = 1…trials. Episodes run with feedback "final" unless --feedback dense; the model never sees a ' +
    'score unless --show-scores.',
  flags: {
    families: { type: 'string', placeholder: '<id,…|all>', description: 'Task families to play: ids separated by commas, or all (when neither --families nor --task is given).' },
    task: { type: 'string', placeholder: '<id,…|all>', description: 'The earlier name of --families; --families wins when both are given.' },
    split: {
      type: 'string',
      choices: ['train', 'test', 'private'],
      description: "Trial t plays the t-th seed of this split (private: the t-th test seed, drawn under the server's private-split secret); without it, trial t plays seed t.",
    },
    canonical: { type: 'boolean', description: "Play the task files' fixed instances instead of generated ones; not with --split." },
    trials: { type: 'number', integer: true, min: 1, max: 100, default: 1, placeholder: '<k>', description: 'Trials per task family, 1 to 100.' },
    url: { type: 'string', default: 'http://localhost:7860', placeholder: '<url>', description: 'The SupportDesk server.' },
    threshold: { type: 'number', min: 0, max: 1, default: 1, placeholder: '<score>', description: 'A trial succeeds when its score is at least this, 0 to 1.' },
    feedback: { type: 'string', choices: ['final', 'dense'], default: 'final', description: "The episodes' feedback mode: final (an evaluation: rewards are 0 until the last step) or dense. Episodes on test-split seeds run final whatever this says." },
    'show-scores': { type: 'boolean', description: "Pass the observation's score through to the model (an oracle; for experiments)." },
  },
  environment: {
    API_BASE_URL: 'The model endpoint, an OpenAI-compatible …/v1 URL (required).',
    MODEL_NAME: 'The model to ask (required).',
    API_KEY: "The model endpoint's key; HF_TOKEN is read when it is not set.",
    HF_TOKEN: 'The model key when API_KEY is not set.',
    SUPPORTDESK_API_KEY: "The server's API key, if it requires keys: an agent key.",
    SUPPORTDESK_READER_KEY:
      'A reader key of the same tenant. An agent key is never shown the score of a test-split episode (its [END] line says withheld); the report reads those scores with this key, and without it says they are withheld.',
  },
  examples: [
    'npm run agent -- --families all --split test --trials 3 --url http://localhost:7860',
    'npm run agent -- --families billing_duplicate_charge --canonical --feedback dense',
  ],
});
