import { createHmac } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json';
import { chainKeyOf, chainStart, metadataRecord, type EpisodeMetadata } from './hash-chain';

const key = chainKeyOf('test-chain-key-0123456789abcdef0123456789');
const metadata: EpisodeMetadata = {
  episodeId: 'ep-1',
  tenantId: 'tenant-1',
  taskId: 'billing_duplicate_charge',
  taskVersion: 'g2',
  seed: 5,
  agent: 'm',
  runLabel: null,
  tags: ['eval'],
  apiKeyId: 'key-1',
  createdAt: new Date('2026-12-01T10:00:00.000Z'),
  splitSource: 'public',
  splitKeyId: null,
};

/** The first link as the release before the private split computed it, written out by hand. */
function chainStartBeforePrivateSplit(m: EpisodeMetadata): string {
  const record = {
    episode_id: m.episodeId,
    tenant_id: m.tenantId,
    task_id: m.taskId,
    task_version: m.taskVersion,
    seed: m.seed,
    agent: m.agent,
    run_label: m.runLabel,
    tags: m.tags,
    api_key_id: m.apiKeyId,
    created_at: m.createdAt.toISOString(),
  };
  return createHmac('sha256', key.secret).update(`supportdesk/chain-start/v2\n${canonicalJson(record)}`, 'utf8').digest('hex');
}

it("a public episode's chained metadata is what it was before the private split: stored chains verify unchanged", () => {
  expect(Object.keys(metadataRecord(metadata)).sort()).toEqual(
    ['agent', 'api_key_id', 'created_at', 'episode_id', 'run_label', 'seed', 'tags', 'task_id', 'task_version', 'tenant_id'].sort(),
  );
  expect(chainStart(key, metadata)).toBe(chainStartBeforePrivateSplit(metadata));
});

it("a private episode's chained metadata names its split and key id, so relabelling it either way changes the chain", () => {
  const privately = { ...metadata, splitSource: 'private', splitKeyId: 'ps_0123456789ab' };
  expect(metadataRecord(privately)).toMatchObject({ split_source: 'private', split_key_id: 'ps_0123456789ab' });
  const starts = [
    chainStart(key, metadata),
    chainStart(key, privately),
    chainStart(key, { ...privately, splitKeyId: 'ps_ba9876543210' }),
    chainStart(key, { ...privately, splitKeyId: null }),
    chainStart(key, { ...metadata, splitKeyId: 'ps_0123456789ab' }),
  ];
  expect(new Set(starts).size).toBe(starts.length);
});
