import { rmSync } from 'node:fs';

/** Removes the run's folder (the template database and every scratch folder the suites made in TMPDIR). */
export default function globalTeardown(): void {
  const run = process.env.SUPPORTDESK_TEST_RUN_DIR;
  if (run) rmSync(run, { recursive: true, force: true });
}
