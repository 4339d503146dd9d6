import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSupportDeskClient, fillRun, ok } from '../fixture/scripted-agent';
import { startServer } from '../fixture/server';

/** A run of 1,200 cells (3 families × 100 seeds × 4 trials), every one played, on the built server. */
export default async function largeRunSetup(): Promise<() => Promise<void>> {
  const server = await startServer();
  const admin = createSupportDeskClient(server.url, { apiKey: server.adminKey });
  ok(await admin.POST('/admin/tenants', { body: { slug: 'bench', name: 'Bench' } }));
  const issue = async (scope: 'agent' | 'reader') => ok(await admin.POST('/admin/tenants/{slug}/keys', { params: { path: { slug: 'bench' } }, body: { name: scope, scope } })).key;
  const agentKey = await issue('agent');
  const readerKey = await issue('reader');
  const agent = createSupportDeskClient(server.url, { apiKey: agentKey });
  const started = Date.now();
  const runId = ok(await agent.POST('/runs', { body: { name: '1,200 cells', agent: 'scripted-keyword', families: 'all', split: 'train', seed_count: 100, trials: 4, feedback: 'dense' } })).run_id;
  const played = await fillRun(agent, runId, Number.POSITIVE_INFINITY, 8);
  console.log(`filled ${played} cells in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const file = join(server.dir, 'bench.json');
  writeFileSync(file, JSON.stringify({ url: server.url, readerKey, runId, cells: played }));
  process.env.CONSOLE_BENCH = file;
  return async () => {
    await server.stop();
    rmSync(server.dir, { recursive: true, force: true });
  };
}
