import type { Readable } from 'node:stream';
import type { InspectExportInput } from './inspect-export-input';
import type { EvalSampleSummary } from './inspect-log.types';
import { SampleTally, evalLogHeader, reportedPassHatKs } from './eval-header';
import { evalSample } from './eval-sample';
import { logStart } from './eval-start';
import { datasetSampleIds, sampleFileName } from './inspect-names';
import { jsonBytes } from './json-values';
import { EpochReductions } from './reductions';
import { sampleSummary } from './sample-summary';
import { ZipSink } from './zip-sink';

/** The members of an `.eval` file (inspect_ai/log/_recorders/eval.py). */
export const EVAL_MEMBERS = {
  start: '_journal/start.json',
  summaries: 'summaries.json',
  reductions: 'reductions.json',
  header: 'header.json',
} as const;

export interface InspectArchiveOptions {
  /** The modification time of every member (default: now). */
  mtime?: Date;
}

/**
 * A run as an Inspect AI log file (`.eval`), streamed: a ZIP archive, every member deflated JSON, laid out as
 * Inspect's EvalRecorder lays out a finished eval:
 *  - `_journal/start.json`: LogStart (version, eval spec, plan), as written when the eval starts;
 *  - `samples/<id>_epoch_<epoch>.json`: one EvalSample per cell, in the order the samples come;
 *  - `summaries.json`: the EvalSampleSummary of every sample;
 *  - `reductions.json`: the scores reduced over epochs (EvalSampleReductions[]);
 *  - `header.json`: the EvalLog without samples (status, eval, plan, results, stats), last.
 *
 * The samples are read from the input one at a time, each written before the next is read, and only when the
 * reader of the stream wants more; what is kept for the end is a summary (small, thinned) and a running sum per
 * sample. An error (a bad date, a sample met twice, the samples' own) ends the stream with that error.
 */
export function inspectEvalArchive(input: InspectExportInput, options: InspectArchiveOptions = {}): Readable {
  const sink = new ZipSink(options.mtime ?? new Date());
  writeArchive(input, sink).catch((error: unknown) => sink.fail(error));
  return sink.stream;
}

async function writeArchive(input: InspectExportInput, sink: ZipSink): Promise<void> {
  const { run } = input;
  await sink.add(EVAL_MEMBERS.start, jsonBytes(logStart(run, reportedPassHatKs(input.results))));

  const summaries: EvalSampleSummary[] = [];
  const reductions = new EpochReductions(datasetSampleIds(run));
  const tally = new SampleTally();
  const written = new Set<string>();
  for await (const cell of input.samples) {
    const sample = evalSample(cell, run);
    const name = sampleFileName(sample.id, sample.epoch);
    // Inspect's readers keep the last of two members with one name; two episodes for one cell are a caller's bug.
    if (written.has(name)) {
      throw new Error(`a second sample for ${sample.id} epoch ${sample.epoch} (trial ${cell.trial})`);
    }
    written.add(name);
    await sink.add(name, jsonBytes(sample));
    summaries.push(sampleSummary(sample));
    reductions.add(sample);
    tally.add(sample);
  }

  await sink.add(EVAL_MEMBERS.summaries, jsonBytes(summaries));
  await sink.add(EVAL_MEMBERS.reductions, jsonBytes(reductions.reductions()));
  await sink.add(EVAL_MEMBERS.header, jsonBytes(evalLogHeader(input, tally)));
  sink.end();
}
