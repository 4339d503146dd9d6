import { declareCommand } from '../cli/command-declaration';

/*
 * What each benchmark entry point accepts. None takes flags: their knobs are environment variables, listed in
 * their help. Kept together because they are one family of scripts, and apart from the scripts so that reading
 * them runs no benchmark.
 */

const STEP_BENCH_ENVIRONMENT = {
  BENCH_SECONDS: 'Seconds of load per point (default: 8).',
  BENCH_RUNS: 'Runs per point; the median is reported (default: 3).',
  SQLITE_SYNCHRONOUS: "The server's and the storage floor's SQLite synchronous mode (default: FULL).",
  BENCH_POSTGRES_URL:
    'A PostgreSQL role that may create databases (postgresql://user:password@host:5432/postgres): the same steps are then also measured on a ' +
    'second server on a fresh PostgreSQL database, in the same run (pg_* columns; unset: SQLite only).',
};

export const BENCH_COMMAND = declareCommand({
  name: 'bench',
  invocation: 'npm run bench --',
  summary:
    'Builds the server and the tools if they changed, then runs the server benchmarks one after the other: ' +
    'bench:steps, bench:side-by-side, then bench:server (see their --help). Figures go to data/bench/steps.json, ' +
    'data/bench/side-by-side.json and data/bench/server.json.',
  flags: {},
  environment: STEP_BENCH_ENVIRONMENT,
  examples: ['npm run bench', 'BENCH_SECONDS=4 BENCH_RUNS=1 npm run bench'],
});

export const STEP_THROUGHPUT_COMMAND = declareCommand({
  name: 'bench:steps',
  invocation: 'npm run bench:steps --',
  summary:
    'Step throughput and latency over HTTP and over OpenEnv WebSocket sessions with full persistence, for 1, 8 and 32 ' +
    'clients, against floors measured in the same run: Nest 11 answering a constant response on Fastify and on express, ' +
    'the same per-step writes straight through better-sqlite3, and the request pipeline alone. Starts the built server ' +
    '(dist/main.js). Prints a table and writes data/bench/steps.json.',
  flags: {},
  environment: STEP_BENCH_ENVIRONMENT,
  examples: ['npm run bench:steps', 'SQLITE_SYNCHRONOUS=NORMAL npm run bench:steps'],
});

export const SERVER_FIGURES_COMMAND = declareCommand({
  name: 'bench:server',
  invocation: 'npm run bench:server --',
  summary:
    'Server-level figures, each from the built server (dist/main.js) started as its own process: cold start to ' +
    'healthy, reset latency, POST /baseline run time, and resident memory after serving traffic on databases of ' +
    '10,000 and 100,000 stored episodes (generated once into data/bench/). Writes data/bench/server.json.',
  flags: {},
  examples: ['npm run bench:server'],
});

export const AUDIT_QUERIES_COMMAND = declareCommand({
  name: 'bench:audit',
  invocation: 'npm run bench:audit --',
  summary:
    'Times the audit queries (GET /episodes filters and deep pages, GET /stats) over HTTP on the real app, on a ' +
    'generated database of episodes with 10 action rows each (made once into data/bench/audit-<episodes>.db; delete ' +
    'it to regenerate): median and p95 of 30 runs after 5 warm-ups, then the SQLite query plans; with BENCH_POSTGRES_URL, the same on ' +
    'PostgreSQL beside them.',
  flags: {},
  environment: {
    BENCH_EPISODES: 'Episodes in the generated database (default: 100000).',
    BENCH_POSTGRES_URL:
      'A PostgreSQL role that may create databases (postgresql://user:password@host:5432/postgres): the dataset is then also copied once into ' +
      'its database sd_bench_audit_<episodes> (kept for the next run; drop it to copy again) and the same queries timed there, in the same run.',
  },
  examples: ['npm run bench:audit', 'BENCH_EPISODES=10000 npm run bench:audit', 'BENCH_POSTGRES_URL=postgresql://bench:secret@127.0.0.1:5432/postgres npm run bench:audit'],
});

export const REPLY_GRADING_COMMAND = declareCommand({
  name: 'bench:grading',
  invocation: 'npm run bench:grading --',
  summary:
    "What grading replies as claims costs, through the engine's own step: a send_reply step with a 500-character reply, " +
    'another step before any reply and after two, and the same if every earlier reply were read again at each grade. ' +
    'Prints median and p99 per task.',
  flags: {},
  environment: { BENCH_ROUNDS: 'Rounds over every reply, after two warm-up rounds (default: 20).' },
  examples: ['npm run bench:grading', 'BENCH_ROUNDS=50 npm run bench:grading'],
});

export const STEP_LOAD_MODES = ['step', 'constant', 'pipeline', 'ws'] as const;

/** Started by bench:steps as a child process, never through npm. */
export const STEP_LOAD_COMMAND = declareCommand({
  name: 'step-load',
  invocation: 'node build/tools/bench/step-load.js',
  summary:
    "The step benchmark's load generator, a process of its own so it does not share the server's event loop. Each " +
    'client steps its own episode and waits for each answer; prints one JSON line: requests, errors, requests per ' +
    'second, p50 and p99 latency in ms.',
  flags: {},
  positionals: [
    { name: 'baseUrl', description: 'The server, e.g. http://127.0.0.1:7860.', required: true },
    { name: 'clients', description: 'Concurrent clients.', required: true },
    { name: 'seconds', description: 'How long to load.', required: true },
    {
      name: 'mode',
      description:
        'step (reset and step episodes), constant (the floor server), pipeline (steps for an episode that does not exist: ' +
        'the request pipeline alone, answered 404) or ws (one OpenEnv WebSocket session per client).',
      required: true,
    },
  ],
  examples: ['node build/tools/bench/step-load.js http://127.0.0.1:7860 8 8 step'],
});

export const FLOOR_PLATFORMS = ['fastify', 'express'] as const;

/** Started by bench:steps as a child process, never through npm. */
export const FLOOR_SERVER_COMMAND = declareCommand({
  name: 'floor-server',
  invocation: 'node build/tools/bench/floor-server.js',
  summary:
    "The step benchmark's framework floor: Nest 11 with JSON body parsing and a POST /step that answers a constant " +
    'step-sized response without a database. Prints "listening <port>" once it listens on 127.0.0.1.',
  flags: {},
  positionals: [{ name: 'platform', description: "fastify, the server's platform, or express, the one before.", default: 'fastify' }],
  environment: { PORT: 'The port to listen on (default: 0, any free port).' },
  examples: ['PORT=0 node build/tools/bench/floor-server.js express'],
});

export const RUNS_BENCH_COMMAND = declareCommand({
  name: 'bench:runs',
  invocation: 'npm run bench:runs --',
  summary:
    'Times the evaluation-run routes over HTTP on the real app (open mode), on a generated database (made once into ' +
    'data/bench/runs.db; delete it to regenerate): GET /runs/{id} of a finished run of 15 families × 20 seeds × 4 trials ' +
    '(1,200 episodes, 2,000 bootstrap resamples) uncached and cached, GET /runs for a tenant with 1,000 runs, and the ' +
    'paired comparison of two such runs. Median and p95 of 30 requests after 5 warm-ups, each against GET /health timed ' +
    'in the same run (the floor).',
  flags: {},
  examples: ['npm run bench:runs'],
});

export const SIDE_BY_SIDE_COMMAND = declareCommand({
  name: 'bench:side-by-side',
  invocation: 'npm run bench:side-by-side --',
  summary:
    'This server against the anchor (tools/bench/anchor: a stand-in for the original stack, FastAPI + uvicorn with ' +
    'episodes in a dict) under the same closed-loop loads, alternating, BENCH_RUNS rounds, medians reported: the ' +
    "shared kit's load (its own load generator, loadgen.mjs) at 32 and 1 clients, in open mode and with an agent key; " +
    'the realistic mix at 32 clients on both; and on this server alone the mix over /ws and /mcp, the kit load over /ws, ' +
    'and the batch step (32 clients x batches of BATCH_SIZE). Needs Debian\'s python3-fastapi and python3-uvicorn. ' +
    'Prints a table and writes data/bench/side-by-side.json.',
  flags: {},
  environment: {
    BENCH_SECONDS: 'Seconds of load per point (default: 8).',
    BENCH_RUNS: 'Alternating rounds; the median of each point is reported (default: 3).',
    BATCH_SIZE: 'Environments per client in the batch point (default: 16).',
  },
  examples: ['npm run bench:side-by-side', 'BENCH_SECONDS=4 BENCH_RUNS=1 npm run bench:side-by-side'],
});

export const BACKUP_BENCH_COMMAND = declareCommand({
  name: 'bench:backup',
  invocation: 'npm run bench:backup --',
  summary:
    "Times npm run backup's and npm run restore's work on a large database (the audit benchmark's synthetic episodes " +
    'and action rows, generated once into data/bench/backup-<MB>.db; delete it to regenerate): BENCH_RUNS backups ' +
    '(copy through the online backup API, quick_check, sha256) and restores into a scratch folder, medians and MB/s, ' +
    'and one backup checked with integrity_check. Writes data/bench/backup.json.',
  flags: {},
  environment: {
    BENCH_BACKUP_MB: 'Size of the generated database in megabytes (default: 1024).',
    BENCH_RUNS: 'Backups and restores timed; the median is reported (default: 3).',
  },
  examples: ['npm run bench:backup', 'BENCH_BACKUP_MB=300 BENCH_RUNS=1 npm run bench:backup'],
});

export const MIX_LOAD_PLANS = ['kit', 'mix', 'mix-anchor'] as const;
export type MixLoadPlan = (typeof MIX_LOAD_PLANS)[number];
export const MIX_LOAD_TRANSPORTS = ['http', 'ws', 'mcp', 'batch'] as const;
export type MixLoadTransport = (typeof MIX_LOAD_TRANSPORTS)[number];

/** Started by bench:side-by-side as a child process, never through npm. */
export const MIX_LOAD_COMMAND = declareCommand({
  name: 'mix-load',
  invocation: 'node build/tools/bench/mix-load.js',
  summary:
    "The side-by-side benchmark's load generator, a process of its own. Each client resets an episode, steps it " +
    'through its plan until it ends, and resets again, awaiting every answer; prints one JSON line: steps and resets ' +
    'per second, step and reset p50/p99 in ms, errors.',
  flags: {},
  positionals: [
    { name: 'baseUrl', description: 'The server, e.g. http://127.0.0.1:7860.', required: true },
    { name: 'clients', description: 'Concurrent clients.', required: true },
    { name: 'seconds', description: 'How long to load.', required: true },
    { name: 'plan', description: "kit (the shared kit's fixed mix), mix (the realistic mix on every family) or mix-anchor (the mix on the anchor's tasks).", required: true },
    { name: 'transport', description: 'http, ws (OpenEnv sessions), mcp (tools/call) or batch (POST /step/batch).', required: true },
    { name: 'key', description: 'An API key to send as a bearer token (none: open mode).' },
  ],
  environment: { BATCH_SIZE: 'Environments per client with the batch transport (default: 16).' },
  examples: ['node build/tools/bench/mix-load.js http://127.0.0.1:7860 32 8 mix http'],
});

export const STEP_STAGES_COMMAND = declareCommand({
  name: 'bench:stages',
  invocation: 'npm run bench:stages --',
  summary:
    "Where a step request's time goes: the built server under V8's CPU profiler, loaded with the shared kit's plan over " +
    'HTTP; every sample is given to the stage of the request its stack is in (logging, Host check, authentication and ' +
    'rate limit, body parsing, validation, the step: engine, search, grading, persistence, presenting; serialization, ' +
    "routing and framework, Node's own work). Prints each stage's share and microseconds per step.",
  flags: {},
  environment: {
    BENCH_SECONDS: 'Seconds of load (default: 12).',
    BENCH_CLIENTS: 'Concurrent clients (default: 32).',
  },
  examples: ['npm run bench:stages', 'BENCH_CLIENTS=1 npm run bench:stages'],
});

export const STORAGE_COMMAND = declareCommand({
  name: 'bench:storage',
  invocation: 'npm run bench:storage --',
  summary:
    'Disk cost of finished episodes: the built server (dist/main.js) on a fresh database serves the standard mix (each ' +
    'episode 10 steps of every action type ending in a resolve, one reply of about 300 characters, no request_id) over ' +
    'HTTP; then the file is ' +
    'VACUUMed and its size divided by the finished episodes, with each table and index\'s share (SQLite dbstat), per ' +
    'episode and per 1M steps. Writes data/bench/storage.json.',
  flags: {
    episodes: { type: 'number', integer: true, min: 100, max: 1_000_000, default: 10_000, description: 'Episodes to play.' },
    clients: { type: 'number', integer: true, min: 1, max: 256, default: 16, description: 'Concurrent clients.' },
    keep: { type: 'string', placeholder: '<file>', description: 'Also copy the database, as the server left it (before the VACUUM), to this file, to look inside it.' },
  },
  examples: ['npm run bench:storage', 'npm run bench:storage -- --episodes 1000', 'npm run bench:storage -- --episodes 1000 --keep /tmp/storage.db'],
});

export const REPLICAS_BENCH_COMMAND = declareCommand({
  name: 'bench:replicas',
  invocation: 'npm run bench:replicas --',
  summary:
    'Step throughput and latency at 32 and 128 clients through HAProxy (deploy/haproxy.cfg) with one and with two replicas on one ' +
    'PostgreSQL database, beside one server on SQLite and one on PostgreSQL without the load balancer, in the same run; and where ' +
    "the CPU time goes (each replica, HAProxy, PostgreSQL's processes, the load generator). Needs BENCH_POSTGRES_URL and Debian's " +
    'haproxy. Starts the built server (dist/main.js). Prints tables and writes data/bench/replicas.json.',
  flags: {},
  environment: {
    BENCH_SECONDS: 'Seconds of load per point (default: 8).',
    BENCH_RUNS: 'Runs per point; the median is reported (default: 3).',
    BENCH_POSTGRES_URL: 'A PostgreSQL role that may create databases (postgresql://user:password@host:5432/postgres); required.',
  },
  examples: ['BENCH_POSTGRES_URL=postgresql://supportdesk_test:supportdesk_test@127.0.0.1:5432/postgres npm run bench:replicas'],
});

