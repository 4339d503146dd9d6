import { declareCommand } from '../cli/command-declaration';

/**
 * `npm run agent`'s flags; agent.cli.ts reads them and agent-settings.ts checks how they combine. The flags that
 * shape a new run have no declared default (the help states it in words): given with --run, they are refused
 * rather than silently ignored, and only an undeclared default lets the settings tell "given" from "left out".
 */
export const AGENT_COMMAND = declareCommand({
  name: 'agent',
  invocation: 'npm run agent --',
  summary:
    'Plays an LLM (any OpenAI-compatible chat-completions endpoint, through the official openai package, tool calls ' +
    'mapped to the actions) against a running SupportDesk server in an evaluation run: creates the run (POST /runs) or ' +
    'resumes one (--run), then fills its cells (every family × seed × trial) with --concurrency workers, logs every ' +
    'episode in the OpenEnv evaluation format on stdout (an episode\'s lines together, once it ends) and ends with the ' +
    "run's table: pass^k for k = 1…trials and the mean score, with intervals, and the flip rate per family, read with a " +
    "reader key (an agent key is never shown a run's scores).\n\n" +
    'Ctrl-C stops taking cells, reports the episodes in flight as interrupted (their cells are filled again on resume), ' +
    'prints the partial table and the command that resumes; a second Ctrl-C exits at once. Exit codes: 0 the run has no ' +
    'cell left to fill, 1 failed, 2 a mistake on the command line, 3 a server or model endpoint that could not be ' +
    'reached or kept failing, 130 interrupted.',
  flags: {
    url: { type: 'string', default: 'http://localhost:7860', placeholder: '<url>', description: 'The SupportDesk server.' },
    model: { type: 'string', placeholder: '<name>', description: 'The model to ask (MODEL_NAME when not given; with --run, the run\'s model when neither is).' },
    'model-url': { type: 'string', placeholder: '<url>', description: 'The model endpoint, an OpenAI-compatible …/v1 URL (API_BASE_URL when not given).' },
    run: { type: 'string', placeholder: '<run_id>', description: 'Resume this run: fill the cells it has left (none of the flags that shape a new run may be given).' },
    name: { type: 'string', placeholder: '<name>', description: 'A new run\'s name (default: the model and the time).' },
    tasks: { type: 'string', placeholder: '<id,…|all>', description: 'A new run\'s task families: ids separated by commas, or all (default: all).' },
    families: { type: 'string', placeholder: '<id,…|all>', description: 'The same as --tasks (its earlier name).' },
    split: { type: 'string', choices: ['test', 'train', 'canonical'], description: "A new run's instances: drawn from test or train seeds, or the task files' canonical ones (default: test)." },
    canonical: { type: 'boolean', description: 'The same as --split canonical.' },
    'seed-count': { type: 'number', integer: true, min: 1, max: 1000, placeholder: '<n>', description: 'A new run plays the first n seeds of its split (default: 1); not with --seeds.' },
    seeds: { type: 'string', placeholder: '<seed,…>', description: 'A new run plays these seeds of its split instead.' },
    trials: { type: 'number', integer: true, min: 1, max: 20, placeholder: '<k>', description: 'A new run\'s trials per family and seed, 1 to 20 (default: 1).' },
    threshold: { type: 'number', min: 0, max: 1, placeholder: '<score>', description: "A new run's success: a score of at least this, 0 to 1 (default: the server's, a full score)." },
    feedback: { type: 'string', choices: ['final', 'dense'], description: 'A new run\'s feedback mode: final (an evaluation: rewards are 0 until the last step) or dense; test runs are final only (default: final).' },
    concurrency: { type: 'number', integer: true, min: 1, max: 64, default: 4, placeholder: '<n>', description: 'Episodes played at once.' },
    'reader-key': { type: 'string', placeholder: '<key>', description: 'A reader key of the same tenant, to read the table at the end (SUPPORTDESK_READER_KEY when not given).' },
    'model-timeout': { type: 'number', min: 1, max: 3600, default: 120, placeholder: '<seconds>', description: 'Time allowed for one model call.' },
    'model-retries': { type: 'number', integer: true, min: 0, max: 20, default: 4, placeholder: '<n>', description: 'Retries of a model call that failed to connect, timed out or got 408, 409, 429 or 5xx (with back-off, honouring Retry-After).' },
    'show-scores': { type: 'boolean', description: "Pass the observation's score through to the model (an oracle; for experiments)." },
  },
  environment: {
    API_BASE_URL: 'The model endpoint when --model-url is not given.',
    MODEL_NAME: 'The model when --model is not given.',
    API_KEY: "The model endpoint's key; HF_TOKEN is read when it is not set. A local server (vLLM, Ollama, llama.cpp) needs neither.",
    HF_TOKEN: 'The model key when API_KEY is not set.',
    SUPPORTDESK_API_KEY: "The server's API key, if it requires keys: an agent key (it creates the run and plays its episodes).",
    SUPPORTDESK_READER_KEY: 'A reader key, when --reader-key is not given.',
  },
  examples: [
    'npm run agent -- --model qwen2.5:7b --model-url http://localhost:11434/v1 --tasks all --split test --seed-count 5 --trials 3',
    'npm run agent -- --run run_5f0c2a9e4b7d1c3a8e6f0b2d --model-url http://localhost:11434/v1',
    'npm run agent -- --families billing_duplicate_charge --canonical --feedback dense --trials 2',
  ],
});
