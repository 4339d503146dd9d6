import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { sqliteTimestamp } from '../../src/database/sqlite-timestamp';
import { PUBLIC_TENANT } from '../../src/tenants/tenant.constants';

/** The shape the figures name: a finished run of 15 families × 20 seeds × 4 trials, and 1,000 runs in all. */
export const RUN_SHAPE = { families: 15, seeds: 20, trials: 4, runs: 1000 } as const;
/** The ids of the two big runs (the others are small). */
export const BIG_RUNS = ['run_bench_a', 'run_bench_b'] as const;

/** A deterministic pseudo-random sequence, so every generated dataset is the same. */
function lcg(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/**
 * Fills a migrated database, straight through better-sqlite3: two finished runs of 15 families × 20 seeds × 4 trials
 * with an episode per cell (scores drawn per family and seed, like real ones), and 998 small runs, all in the public
 * tenant. The families are named like tasks; their instances are never drawn (the routes timed read the stored rows).
 */
export function generateRunsDataset(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const random = lcg(7);
  const families = Array.from({ length: RUN_SHAPE.families }, (_, i) => `family_${String(i + 1).padStart(2, '0')}`);
  const seeds = Array.from({ length: RUN_SHAPE.seeds }, (_, i) => 5 * i);
  const start = Date.parse('2026-11-01T00:00:00Z');
  const snapshot = JSON.stringify({ padding: randomBytes(1200).toString('base64') });
  const insertTask = db.prepare('INSERT OR IGNORE INTO task_versions (task_id, version, content_json, synced_at) VALUES (?, ?, ?, ?)');
  const insertRun = db.prepare(`INSERT INTO runs (id, tenant_id, name, agent, split, feedback, families_json, seeds_json, trials, success_milli,
    metadata_json, config_hash, grader_version, generators_json, status, cell_count, created_at, completed_at)
    VALUES (?, ?, ?, ?, 'test', 'final', ?, ?, ?, 1000, '{}', ?, 16, ?, 'complete', ?, ?, ?)`);
  const insertCell = db.prepare(`INSERT INTO run_cells (run_id, tenant_id, task_id, seed, trial, position, status, episode_id, attempts, termination,
    score_milli, started_at, finished_at, wall_ms, input_tokens, output_tokens) VALUES (?, ?, ?, ?, ?, ?, 'finished', ?, 1, 'resolved', ?, ?, ?, ?, ?, ?)`);
  const insertEpisode = db.prepare(`INSERT INTO episodes (id, tenant_id, task_id, task_version, seed, status, step_count, score_milli, version,
    state_json, agent, run_label, tags_json, opened_milli, policy_milli, priority_milli, routing_milli, reply_milli, resolution_milli,
    run_id, run_trial, created_at, updated_at) VALUES (?, ?, ?, 'g1', ?, 'resolved', 8, ?, 8, ?, ?, ?, '[]', 50, 100, 150, 200, ?, ?, ?, ?, ?, ?)`);
  const insertTenant = db.prepare('INSERT OR IGNORE INTO tenants (id, slug, name, created_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    insertTenant.run(PUBLIC_TENANT.id, PUBLIC_TENANT.slug, PUBLIC_TENANT.name, sqliteTimestamp(new Date(start)));
    for (const family of families) insertTask.run(family, 'g1', '{}', sqliteTimestamp(new Date(start)));
    const generators = JSON.stringify(Object.fromEntries(families.map((f) => [f, 'g1'])));
    for (let r = 0; r < RUN_SHAPE.runs; r++) {
      const big = r < BIG_RUNS.length;
      const id = big ? BIG_RUNS[r] : `run_bench_${String(r).padStart(4, '0')}`;
      const runFamilies = big ? families : families.slice(0, 1);
      const runSeeds = big ? seeds : seeds.slice(0, 2);
      const trials = big ? RUN_SHAPE.trials : 1;
      const created = new Date(start + r * 60_000);
      const cells = runFamilies.length * runSeeds.length * trials;
      insertRun.run(id, PUBLIC_TENANT.id, `bench ${r}`, `agent-${r % 10}`, JSON.stringify(runFamilies), JSON.stringify(runSeeds), trials, 'bench-config-' + (big ? 'big' : 'small'), generators, cells, sqliteTimestamp(created), sqliteTimestamp(created));
      let position = 0;
      for (let trial = 0; trial < trials; trial++) {
        for (const seed of runSeeds) {
          for (const family of runFamilies) {
            // Each (family, seed) has a success probability; a trial succeeds (1.0) with it, else scores 0.2-0.9.
            const p = ((families.indexOf(family) * 7 + seed) % 10) / 10;
            const score = random() < p ? 1000 : 200 + Math.floor(random() * 700);
            const episode = `${id}-${position}`;
            insertEpisode.run(episode, PUBLIC_TENANT.id, family, seed, score, snapshot, `agent-${r % 10}`, `${id}/trial-${trial}`, Math.max(0, score - 500), 0, id, trial, sqliteTimestamp(created), sqliteTimestamp(created));
            insertCell.run(id, PUBLIC_TENANT.id, family, seed, trial, position, episode, score, sqliteTimestamp(created), sqliteTimestamp(created), 40_000, 12_000, 800);
            position++;
          }
        }
      }
    }
  })();
  db.close();
}
