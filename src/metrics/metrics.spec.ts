import { loadConfig } from '../config/app-config';
import { Metrics } from './metrics';

type Sample = { labels: Partial<Record<string, string | number>>; value: number; metricName?: string };

/** The samples named `name` (a histogram's `_count` too) that are not 0, as prom-client reports them. */
async function samples(metrics: Metrics, name: string): Promise<Array<Omit<Sample, 'metricName'>>> {
  const values = (await metrics.registry.getMetricsAsJSON()).flatMap((m) => (m.values as Sample[]).map((v) => ({ ...v, metricName: v.metricName ?? m.name })));
  return values.filter((v) => v.metricName === name && v.value !== 0).map(({ labels, value }) => ({ labels, value }));
}

it('counts steps by action and transport only; an action type outside the schema is "invalid"; apps do not share a registry', async () => {
  const metrics = new Metrics(loadConfig({}));
  const other = new Metrics(loadConfig({}));
  metrics.stepApplied('ws', 'open_ticket', 'lab-a');
  metrics.stepApplied('ws', 'open_ticket', 'lab-b');
  metrics.stepApplied('http', 'drop_table', 'lab-a');
  metrics.resetApplied('mcp', 'lab-a');
  expect(await samples(metrics, 'supportdesk_steps_total')).toEqual([
    { labels: { action: 'open_ticket', transport: 'ws' }, value: 2 },
    { labels: { action: 'invalid', transport: 'http' }, value: 1 },
  ]);
  expect(await samples(metrics, 'supportdesk_resets_total')).toEqual([{ labels: { transport: 'mcp' }, value: 1 }]);
  expect(await samples(other, 'supportdesk_steps_total')).toEqual([]);
});

it('with METRICS_TENANT_LABELS=true, steps and resets carry the tenant', async () => {
  const metrics = new Metrics(loadConfig({ METRICS_TENANT_LABELS: 'true' }));
  metrics.stepApplied('batch', 'send_reply', 'lab-a');
  metrics.stepApplied('batch', 'send_reply', 'lab-b');
  metrics.resetApplied('http', 'lab-a');
  expect(await samples(metrics, 'supportdesk_steps_total')).toEqual([
    { labels: { action: 'send_reply', transport: 'batch', tenant: 'lab-a' }, value: 1 },
    { labels: { action: 'send_reply', transport: 'batch', tenant: 'lab-b' }, value: 1 },
  ]);
  expect(await samples(metrics, 'supportdesk_resets_total')).toEqual([{ labels: { transport: 'http', tenant: 'lab-a' }, value: 1 }]);
});

it('labels HTTP responses by route template, a request no route matched as "unmatched", and the duration by status class', async () => {
  const metrics = new Metrics(loadConfig({}));
  metrics.httpResponse('GET', '/state/:episode_id', 404, 0.002);
  metrics.httpResponse('GET', '/state/:episode_id', 404, 0.003);
  metrics.httpResponse('GET', undefined, 404, 0.001);
  expect(await samples(metrics, 'supportdesk_http_requests_total')).toEqual([
    { labels: { method: 'GET', route: '/state/:episode_id', status: '404' }, value: 2 },
    { labels: { method: 'GET', route: 'unmatched', status: '404' }, value: 1 },
  ]);
  expect(await samples(metrics, 'supportdesk_http_request_duration_seconds_count')).toEqual([
    { labels: { method: 'GET', route: '/state/:episode_id', status_class: '4xx' }, value: 2 },
    { labels: { method: 'GET', route: 'unmatched', status_class: '4xx' }, value: 1 },
  ]);
});
