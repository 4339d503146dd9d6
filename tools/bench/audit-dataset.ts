import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { sqliteTimestamp } from '../../src/database/sqlite-timestamp';
import { tenantSerial } from '../../src/episodes/log-columns';

export interface DatasetShape {
  episodes: number;
  actionsPerEpisode: number;
  tenants: string[];
}

const TASKS = [
  ['billing_duplicate_charge', 'v-billing'],
  ['security_compromised_account', 'v-security'],
  ['logistics_missing_order_vip', 'v-logistics'],
] as const;
const STATUSES = ['resolved', 'resolved', 'out_of_steps', 'active'];
const AGENTS = Array.from({ length: 10 }, (_, i) => `agent-${i}/1.${i % 3}`);

/** A deterministic pseudo-random sequence, so every generated dataset is the same. */
function lcg(seed: number) {
  let x = seed >>> 0;
  return (n: number) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    // The high bits: an LCG's low bits cycle with short periods.
    return Math.floor((x / 2 ** 32) * n);
  };
}

/**
 * Fills a freshly migrated database with synthetic episodes and action rows shaped like real ones (the same
 * columns, a state snapshot of realistic size), straight through better-sqlite3 so 1,000,000 rows take seconds.
 * The first tenant gets 70% of the episodes; the others share the rest.
 */
export function generateAuditDataset(file: string, shape: DatasetShape): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const next = lcg(42);
  const snapshot = JSON.stringify({ padding: randomBytes(1200).toString('base64') });
  const start = Date.parse('2026-01-01T00:00:00Z');

  const insertTenant = db.prepare('INSERT OR IGNORE INTO tenants (id, slug, name, created_at) VALUES (?, ?, ?, ?)');
  const insertTask = db.prepare('INSERT OR IGNORE INTO task_versions (task_id, version, content_json, synced_at) VALUES (?, ?, ?, ?)');
  const insertEpisode = db.prepare(`INSERT INTO episodes (id, tenant_id, task_id, task_version, seed, status, step_count, score_milli, version,
    state_json, agent, run_label, tags_json, opened_milli, policy_milli, priority_milli, routing_milli, reply_milli, resolution_milli,
    chain_head, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertTag = db.prepare('INSERT INTO episode_tags (episode_id, tenant_id, tag) VALUES (?, ?, ?)');
  const insertAction = db.prepare(`INSERT INTO action_log (episode_serial, tenant_serial, step_index, action_json, reward_milli, score_after_milli,
    outcome, error, created_at, hash) VALUES (?, ${tenantSerial()}, ?, ?, ?, ?, ?, ?, ?, ?)`);

  const now = sqliteTimestamp(new Date(start));
  for (const slug of shape.tenants) insertTenant.run(slug, slug, slug, now);
  for (const [taskId, version] of TASKS) insertTask.run(taskId, version, '{}', now);

  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const id = `ep-${String(i).padStart(7, '0')}`;
      const tenant = next(10) < 7 ? shape.tenants[0] : shape.tenants[1 + next(shape.tenants.length - 1)];
      const [taskId, version] = TASKS[next(3)];
      const status = STATUSES[next(4)];
      const parts = [50, next(2) * 100, next(2) * 150, next(2) * 200, next(5) * 40, status === 'resolved' ? next(2) * 300 : 0];
      const score = parts.reduce((a, b) => a + b, 0);
      const createdMs = start + i * 60_000 + next(60_000);
      const created = sqliteTimestamp(new Date(createdMs));
      const tags = next(5) === 0 ? ['nightly', 'eval'] : ['eval'];
      const { lastInsertRowid: serial } = insertEpisode.run(id, tenant, taskId, version, i, status, shape.actionsPerEpisode, score, shape.actionsPerEpisode,
        snapshot, AGENTS[next(AGENTS.length)], `run-${next(20)}`, JSON.stringify(tags), ...parts, '0'.repeat(64), created, created);
      for (const tag of tags) insertTag.run(id, tenant, tag);
      for (let s = 1; s <= shape.actionsPerEpisode; s++) {
        insertAction.run(serial, tenant, s, '{"type":"search_policy","query":"refund duplicate charge"}', 10, s * 10,
          'search returned 5 article(s)', null, createdMs, randomBytes(32));
      }
    }
  });
  const chunk = 5_000;
  for (let from = 0; from < shape.episodes; from += chunk) batch(from, Math.min(from + chunk, shape.episodes));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.close();
}
