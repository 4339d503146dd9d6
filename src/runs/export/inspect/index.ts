/** Inspect AI log export: a run as an `.eval` file the Inspect log viewer opens. */
export { EVAL_MEMBERS, inspectEvalArchive, type InspectArchiveOptions } from './eval-archive';
export type { InspectExportInput, InspectSampleInput, InspectTermination } from './inspect-export-input';
export { inspectEvalFileName } from './inspect-names';
export { ArchiveClosedError } from './zip-sink';
