import type { Readable } from 'node:stream';
import { readZip, type ZipEntry } from '../../../../test/fixtures/inspect/read-zip';
import { schemaErrors, validators } from '../../../../test/fixtures/inspect/inspect-schema';
import {
  ArchiveClosedError,
  EVAL_MEMBERS,
  inspectEvalArchive,
  inspectEvalFileName,
  type InspectExportInput,
  type InspectSampleInput,
} from './index';

const FAMILIES = ['billing_duplicate_charge', 'shipping_delay'];
const SEEDS = [7, 11];
const TRIALS = 2;

function run(overrides: Partial<InspectExportInput['run']> = {}): InspectExportInput['run'] {
  return {
    run_id: 'run_01HZX',
    name: 'nightly baseline',
    agent: 'baseline-agent',
    model: 'openai/gpt-4o-mini',
    split: 'test',
    feedback: 'final',
    families: FAMILIES,
    seeds: SEEDS,
    trials: TRIALS,
    config_hash: 'c0ffee',
    grader_version: 16,
    generator_versions: { billing_duplicate_charge: '3', shipping_delay: '2' },
    created_at: '2026-12-01T10:00:00.000Z',
    completed_at: '2026-12-01T11:00:00Z',
    status: 'complete',
    metadata: { owner: 'lead', nested: { a: [1, 2] }, weird: Number.NaN },
    success_threshold: 0.8,
    server_version: '0.1.0',
    ...overrides,
  };
}

const RESULTS: InspectExportInput['results'] = {
  mean_score: 0.6,
  success_rate: 0.5,
  pass_hat_k: [
    { k: 1, estimate: 0.5 },
    { k: 2, estimate: 0.25 },
    { k: 3, estimate: null },
  ],
  cells_total: 8,
  cells_finished: 7,
};

/** A cell's sample: the (shipping_delay, 11, trial 1) one is abandoned without a score; (billing, 7, 0) reports tokens. */
function cell(taskId: string, seed: number, trial: number): InspectSampleInput {
  const abandoned = taskId === 'shipping_delay' && seed === 11 && trial === 1;
  const withTokens = taskId === 'billing_duplicate_charge' && seed === 7 && trial === 0;
  const score = abandoned ? null : 0.25 + 0.25 * trial + (seed === 11 ? 0.25 : 0);
  return {
    task_id: taskId,
    seed,
    trial,
    episode_id: `ep_${taskId}_${seed}_${trial}`,
    instruction: `Customer ticket for ${taskId} #${seed}: please help.`,
    termination: abandoned ? 'abandoned' : 'resolved',
    score,
    success: score === null ? null : score >= 0.8,
    components: abandoned ? {} : { refund: 0.5, tone: 0.25, weird: Number.POSITIVE_INFINITY },
    penalties: abandoned ? [] : [{ code: 'disclosure', points: 0.1 }],
    steps: [
      { index: 0, action: { type: 'read_ticket' }, reward: null, outcome: 'Ticket body…', error: null, at: '2026-12-01T10:01:00Z' },
      {
        index: 1,
        action: { type: 'send_reply', text: 'Refunded.', amount: 12.5 },
        reward: Number.NaN,
        outcome: '',
        error: abandoned ? 'tool timed out' : null,
        at: '2026-12-01T10:02:00.000Z',
      },
    ],
    started_at: '2026-12-01T10:00:30Z',
    finished_at: abandoned ? null : '2026-12-01T10:03:00Z',
    wall_ms: abandoned ? null : 150000,
    input_tokens: withTokens ? 1200 : null,
    output_tokens: withTokens ? 340 : null,
  };
}

function cells(): InspectSampleInput[] {
  return FAMILIES.flatMap((f) => SEEDS.flatMap((s) => Array.from({ length: TRIALS }, (_, t) => cell(f, s, t))));
}

async function* iterate<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(entry: ZipEntry | undefined): unknown {
  if (entry === undefined) throw new Error('missing entry');
  return JSON.parse(entry.data.toString('utf8'));
}

async function archive(input: Partial<InspectExportInput> = {}): Promise<Map<string, ZipEntry>> {
  const bytes = await collect(
    inspectEvalArchive({ run: run(), results: RESULTS, samples: iterate(cells()), ...input }, { mtime: new Date('2026-12-02T00:00:00Z') }),
  );
  return new Map(readZip(bytes).map((entry) => [entry.name, entry]));
}

type Json = Record<string, any>;

describe('inspectEvalArchive', () => {
  let entries: Map<string, ZipEntry>;
  beforeAll(async () => {
    entries = await archive();
  });

  const sampleNames = FAMILIES.flatMap((f) => SEEDS.flatMap((s) => [1, 2].map((e) => `samples/${f}:${s}_epoch_${e}.json`)));

  it('writes exactly the members of a finished Inspect eval, in the recorder order', () => {
    expect([...entries.keys()]).toEqual([EVAL_MEMBERS.start, ...sampleNames, 'summaries.json', 'reductions.json', 'header.json']);
  });

  it('deflates every member and puts its sizes in the local header, where the Inspect viewer reads them', () => {
    for (const entry of entries.values()) {
      expect({ name: entry.name, method: entry.method, local: entry.local.method }).toEqual({ name: entry.name, method: 8, local: 8 });
      // General purpose bit 3 (sizes in a data descriptor) clear; the local header agrees with the directory.
      expect(entry.local.flags & 0x8).toBe(0);
      expect(entry.local).toEqual({
        method: 8,
        flags: entry.local.flags,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
        crc: entry.crc,
      });
      expect(entry.compressedSize).toBeLessThan(entry.uncompressedSize);
    }
  });

  it('writes JSON without NaN or Infinity anywhere', () => {
    for (const entry of entries.values()) {
      const text = entry.data.toString('utf8');
      expect(() => JSON.parse(text)).not.toThrow();
      expect(text).not.toMatch(/\bNaN\b|Infinity/);
    }
  });

  it('header.json is an EvalLog without samples', () => {
    const header = json(entries.get('header.json')) as Json;
    expect(schemaErrors('header', header)).toEqual([]);
    expect(header).not.toHaveProperty('samples');
    expect(header).not.toHaveProperty('reductions');
    expect(header.version).toBe(2);
    expect(header.status).toBe('success');
    expect(header.eval).toMatchObject({
      task: 'supportdesk/nightly baseline',
      model: 'openai/gpt-4o-mini',
      created: '2026-12-01T10:00:00.000Z',
      run_id: 'run_01HZX',
      dataset: { samples: 4, sample_ids: ['billing_duplicate_charge:7', 'billing_duplicate_charge:11', 'shipping_delay:7', 'shipping_delay:11'] },
      config: { epochs: 2 },
    });
    expect(header.eval.metadata.run).toEqual({ owner: 'lead', nested: { a: [1, 2] }, weird: null });
    expect(header.stats).toMatchObject({
      started_at: '2026-12-01T10:00:00.000Z',
      completed_at: '2026-12-01T11:00:00.000Z',
      model_usage: { 'openai/gpt-4o-mini': { input_tokens: 1200, output_tokens: 340, total_tokens: 1540 } },
    });
    const [score] = header.results.scores;
    expect(header.results).toMatchObject({ total_samples: 8, completed_samples: 7 });
    expect(score).toMatchObject({ name: 'supportdesk', scorer: 'supportdesk', scored_samples: 7, unscored_samples: 1 });
    expect(Object.keys(score.metrics)).toEqual(['mean', 'success_rate', 'pass^1', 'pass^2']);
    expect(score.metrics.mean.value).toBe(0.6);
    expect(score.metrics['pass^2']).toEqual({ name: 'pass^2', value: 0.25, params: { k: 2 } });
  });

  it('_journal/start.json is a LogStart with the same eval and plan', () => {
    const start = json(entries.get(EVAL_MEMBERS.start)) as Json;
    const header = json(entries.get('header.json')) as Json;
    expect(schemaErrors('start', start)).toEqual([]);
    expect(start.eval).toEqual(header.eval);
    expect(start.plan).toEqual(header.plan);
  });

  it('every sample file is an EvalSample of its cell', () => {
    for (const name of sampleNames) {
      const sample = json(entries.get(name)) as Json;
      expect({ name, errors: schemaErrors('sample', sample) }).toEqual({ name, errors: [] });
      expect(`samples/${sample.id}_epoch_${sample.epoch}.json`).toBe(name);
      const [taskId, seed] = String(sample.id).split(':');
      expect(sample.metadata).toMatchObject({ task_id: taskId, seed: Number(seed), trial: sample.epoch - 1 });
    }
  });

  it('maps a step to a tool call and its result, and the grade to the supportdesk score', () => {
    const sample = json(entries.get('samples/billing_duplicate_charge:7_epoch_1.json')) as Json;
    expect(sample.input).toBe('Customer ticket for billing_duplicate_charge #7: please help.');
    expect(sample.messages.map((m: Json) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(sample.messages[3].tool_calls).toEqual([
      { id: 'step-1', function: 'send_reply', arguments: { text: 'Refunded.', amount: 12.5 }, type: 'function' },
    ]);
    expect(sample.messages[4]).toMatchObject({ role: 'tool', tool_call_id: 'step-1', function: 'send_reply', metadata: { reward: null } });
    expect(sample.scores.supportdesk).toMatchObject({
      value: 0.25,
      answer: 'resolved',
      metadata: { components: { refund: 0.5, tone: 0.25, weird: null }, penalties: [{ code: 'disclosure', points: 0.1 }], success: false },
    });
    expect(sample.model_usage).toEqual({ 'openai/gpt-4o-mini': { input_tokens: 1200, output_tokens: 340, total_tokens: 1540 } });
    expect(sample.total_time).toBe(150);
    expect(sample.uuid).toBe('ep_billing_duplicate_charge_7_0');
  });

  it('writes an abandoned cell without a score, with an error, and a failed step as a tool error', () => {
    const sample = json(entries.get('samples/shipping_delay:11_epoch_2.json')) as Json;
    expect(sample).not.toHaveProperty('scores');
    expect(sample).not.toHaveProperty('completed_at');
    expect(sample.error.message).toMatch(/abandoned/);
    expect(sample.metadata).toMatchObject({ termination: 'abandoned', success: null });
    expect(sample.messages[4]).toMatchObject({ content: 'tool timed out', error: { type: 'unknown', message: 'tool timed out' } });
  });

  it('summaries.json is an EvalSampleSummary per sample', () => {
    const summaries = json(entries.get('summaries.json')) as Json[];
    expect(schemaErrors('summaries', summaries)).toEqual([]);
    expect(summaries.map((s) => `samples/${s.id}_epoch_${s.epoch}.json`)).toEqual(sampleNames);
    const abandoned = summaries.find((s) => s.id === 'shipping_delay:11' && s.epoch === 2);
    expect(abandoned).toMatchObject({ completed: false, error: expect.stringMatching(/abandoned/), message_count: 5 });
    expect(abandoned).not.toHaveProperty('scores');
  });

  it('reductions.json holds each sample score averaged over its scored epochs', () => {
    const reductions = json(entries.get('reductions.json')) as Json[];
    expect(schemaErrors('reductions', reductions)).toEqual([]);
    expect(reductions).toEqual([
      {
        scorer: 'supportdesk',
        reducer: 'mean',
        samples: [
          { sample_id: 'billing_duplicate_charge:7', value: 0.375, history: [] },
          { sample_id: 'billing_duplicate_charge:11', value: 0.625, history: [] },
          { sample_id: 'shipping_delay:7', value: 0.375, history: [] },
          // trial 1 is abandoned: the reduction is trial 0's score alone
          { sample_id: 'shipping_delay:11', value: 0.5, history: [] },
        ],
      },
    ]);
  });

  describe('the validation is not vacuous', () => {
    const cases: [string, keyof typeof validators, string, (value: Json) => void][] = [
      ['header', 'header', 'header.json', (h) => delete h.eval.task],
      ['header', 'header', 'header.json', (h) => delete h.status],
      ['header', 'header', 'header.json', (h) => (h.status = 'complete')],
      ['header', 'header', 'header.json', (h) => delete h.results.scores[0].metrics.mean.value],
      ['header', 'header', 'header.json', (h) => delete h.stats.completed_at],
      ['start', 'start', EVAL_MEMBERS.start, (s) => delete s.plan],
      ['start', 'start', EVAL_MEMBERS.start, (s) => delete s.eval.dataset],
      ['sample', 'sample', 'samples/billing_duplicate_charge:7_epoch_1.json', (s) => delete s.epoch],
      ['sample', 'sample', 'samples/billing_duplicate_charge:7_epoch_1.json', (s) => delete s.messages[3].tool_calls[0].function],
      ['sample', 'sample', 'samples/billing_duplicate_charge:7_epoch_1.json', (s) => (s.scores.supportdesk.value = null)],
      ['summaries', 'summaries', 'summaries.json', (s) => delete s[0].completed],
      ['reductions', 'reductions', 'reductions.json', (r) => delete r[0].scorer],
    ];
    it.each(cases)('%s: a broken copy does not validate', (_label, kind, member, mutate) => {
      const value = json(entries.get(member)) as Json;
      expect(schemaErrors(kind, value)).toEqual([]);
      mutate(value);
      expect(schemaErrors(kind, value).length).toBeGreaterThan(0);
    });

    it('an empty object is none of the members', () => {
      for (const kind of ['header', 'start', 'sample'] as const) expect(schemaErrors(kind, {}).length).toBeGreaterThan(0);
    });
  });

  it('writes an open run as a started eval without a completion time', async () => {
    const open = await archive({ run: run({ status: 'open', completed_at: null }) });
    const header = json(open.get('header.json')) as Json;
    expect(schemaErrors('header', header)).toEqual([]);
    expect(header.status).toBe('started');
    expect(header.stats.completed_at).toBe('');
  });

  it('a run without a model names the agent as the model', async () => {
    const noModel = await archive({ run: run({ model: null }) });
    const header = json(noModel.get('header.json')) as Json;
    expect(header.eval.model).toBe('baseline-agent');
    expect(schemaErrors('header', header)).toEqual([]);
  });

  it('ends the stream with an error when a cell comes twice', async () => {
    const twice = [cell('shipping_delay', 7, 0), cell('shipping_delay', 7, 0)];
    const stream = inspectEvalArchive({ run: run(), results: RESULTS, samples: iterate(twice) });
    await expect(collect(stream)).rejects.toThrow(/second sample for shipping_delay:7 epoch 1/);
  });

  it('ends the stream with an error when a date is not ISO 8601', async () => {
    const stream = inspectEvalArchive({ run: run({ created_at: 'yesterday' }), results: RESULTS, samples: iterate(cells()) });
    await expect(collect(stream)).rejects.toThrow(/not an ISO 8601 date: "yesterday"/);
  });

  it('names the file as Inspect names its logs', () => {
    expect(inspectEvalFileName(run())).toBe('2026-12-01T10-00-00Z_supportdesk-nightly-baseline_run_01HZX.eval');
  });

  it('ends the stream with the samples’ own error', async () => {
    async function* failing(): AsyncGenerator<InspectSampleInput> {
      yield cell('shipping_delay', 7, 0);
      throw new Error('database went away');
    }
    await expect(collect(inspectEvalArchive({ run: run(), results: RESULTS, samples: failing() }))).rejects.toThrow('database went away');
  });
});

describe('inspectEvalArchive streams', () => {
  const MANY = { families: ['a', 'b', 'c', 'd', 'e'], seeds: Array.from({ length: 10 }, (_, i) => i), trials: 10 };

  /** 500 samples from a generator that counts what has been taken from it and whether it was closed. */
  function counted(instructionLength: number) {
    const state = { pulled: 0, closed: false };
    async function* samples(): AsyncGenerator<InspectSampleInput> {
      try {
        for (const family of MANY.families)
          for (const seed of MANY.seeds)
            for (let trial = 0; trial < MANY.trials; trial++) {
              state.pulled += 1;
              // poorly compressible text: a few long samples fill the stream's buffers
              yield { ...cell(family, seed, trial), instruction: `${family}:${seed}:${trial} ${text(instructionLength)}` };
            }
      } finally {
        state.closed = true;
      }
    }
    return { state, samples: samples() };
  }

  it('writes all 500 samples of a generator', async () => {
    const { state, samples } = counted(100);
    const bytes = await collect(inspectEvalArchive({ run: run(MANY), results: { ...RESULTS, cells_total: 500 }, samples }));
    const names = readZip(bytes).map((e) => e.name);
    const sampleFiles = names.filter((n) => n.startsWith('samples/'));
    expect(state.pulled).toBe(500);
    expect(sampleFiles).toHaveLength(500);
    expect(new Set(sampleFiles).size).toBe(500);
    expect(sampleFiles).toContain('samples/e:9_epoch_10.json');
    const entries = new Map(readZip(bytes).map((e) => [e.name, e]));
    const summaries = json(entries.get('summaries.json')) as Json[];
    expect(summaries).toHaveLength(500);
    expect(schemaErrors('summaries', summaries)).toEqual([]);
    expect(schemaErrors('header', json(entries.get('header.json')))).toEqual([]);
  });

  it('reads samples only as fast as the stream is read, and stops when the stream is destroyed', async () => {
    const { state, samples } = counted(4000);
    const stream = inspectEvalArchive({ run: run(MANY), results: RESULTS, samples });
    // Nobody reads: the writer fills the stream's buffers (some 32 kB) and waits. On a loaded machine deflate's thread
    // pool may take a while to get there, so wait until the count stops moving (or give up after about 5 s).
    await settleUntilStill(() => state.pulled);
    const pulledWhileUnread = state.pulled;
    expect(pulledWhileUnread).toBeGreaterThan(0);
    expect(pulledWhileUnread).toBeLessThan(20);
    await settle();
    expect(state.pulled).toBe(pulledWhileUnread);
    // Reading some of it lets the writer take more.
    let read = 0;
    while (read < 100_000) {
      const chunk = stream.read() as Buffer | null;
      if (chunk === null) await settle();
      else read += chunk.length;
    }
    expect(state.pulled).toBeGreaterThan(pulledWhileUnread);
    expect(state.pulled).toBeLessThan(100);
    // A reader that goes away closes the samples' source.
    stream.destroy();
    await settle();
    expect(state.closed).toBe(true);
    expect(state.pulled).toBeLessThan(100);
  });

  it('exports its closed-stream error', () => {
    expect(new ArchiveClosedError()).toBeInstanceOf(Error);
  });
});

/** Settles until `count` is the same over three settles in a row, at most 15 settles. */
async function settleUntilStill(count: () => number): Promise<void> {
  let still = 0;
  for (let i = 0; i < 15 && still < 3; i++) {
    const before = count();
    await settle();
    still = count() === before ? still + 1 : 0;
  }
}

/** Lets the thread pool (deflate) and the event loop run until nothing moves. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Letters from a fixed linear congruential sequence: text that deflate cannot shrink much. */
function text(length: number): string {
  let x = length;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += String.fromCharCode(97 + (Math.floor(x / 65536) % 26));
  }
  return out;
}
