import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { APP_VERSION } from '../common/app-version';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ACTION_TYPES } from '../engine/vocabulary';

/** How a step or a reset reached the service (docs/metrics.md says which routes and messages each covers). */
export const TRANSPORTS = ['http', 'batch', 'ws', 'mcp', 'baseline'] as const;
export type Transport = (typeof TRANSPORTS)[number];
/** A batch holds steps only. */
const RESET_TRANSPORTS = ['http', 'ws', 'mcp', 'baseline'] as const satisfies readonly Transport[];
export type ResetTransport = (typeof RESET_TRANSPORTS)[number];

/** Why a request was refused by authentication: a small fixed set, so the label cannot grow. */
export const AUTH_REJECTIONS = ['missing_key', 'invalid_key', 'malformed', 'forbidden'] as const;
export type AuthRejection = (typeof AUTH_REJECTIONS)[number];

/** Which limit answered 429: a tenant's request rate, a client address's rate on public routes, failed authentications. */
export const RATE_LIMITS = ['tenant', 'address', 'auth_failures'] as const;
export type RateLimitKind = (typeof RATE_LIMITS)[number];

/** The step counter's action label: an action type, or `invalid` for anything else, so no value from outside adds a series. */
const ACTION_LABELS = [...ACTION_TYPES, 'invalid'] as const;
type ActionLabel = (typeof ACTION_LABELS)[number];

/** The label an HTTP request to no route is counted under, so a scan of made-up paths adds no series. */
export const UNMATCHED_ROUTE = 'unmatched';

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const GRADING_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];

interface HttpSeries {
  requests: Counter.Internal;
  duration: Histogram.Internal<string>;
}

/**
 * The server's Prometheus metrics: one registry per app (tests build many apps in one process, so never
 * prom-client's global one) holding prom-client's process metrics under their standard names and the service's
 * own, named `supportdesk_*` (docs/metrics.md). Recording runs on the hot path: the children of label sets known
 * ahead (steps, resets, refusals) are made once, those of HTTP routes once per route, method and status. No label
 * holds an id (episode, request, key) or, unless METRICS_TENANT_LABELS is on, a tenant.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  /** By route template, method and status: looked up without building a key, so a response allocates nothing here. */
  private readonly httpSeries = new Map<string, Map<string, Map<number, HttpSeries>>>();
  private readonly steps: Counter<string>;
  private readonly resets: Counter<string>;
  /** The step and reset children by transport (and action), or null when tenants are labelled (a child per tenant, made as needed). */
  private readonly stepChildren: Record<Transport, Record<ActionLabel, Counter.Internal>> | null;
  private readonly resetChildren: Record<ResetTransport, Counter.Internal> | null;
  private readonly grading: Histogram;
  private readonly refusals: Record<AuthRejection, Counter.Internal>;
  private readonly limited: Record<RateLimitKind, Counter.Internal>;
  private readonly openSessions: Record<'ws' | 'mcp', () => number | Promise<number>> = { ws: () => 0, mcp: () => 0 };

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    new Gauge({ name: 'supportdesk_build_info', help: 'The running version (always 1)', labelNames: ['version'], registers }).set({ version: APP_VERSION }, 1);
    this.httpRequests = new Counter({
      name: 'supportdesk_http_requests_total',
      help: `HTTP responses sent, by method, route template (${UNMATCHED_ROUTE}: no route) and status`,
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'supportdesk_http_request_duration_seconds',
      help: 'Time from routing a request to the end of its response, by method, route template and status class (2xx, 4xx, …)',
      labelNames: ['method', 'route', 'status_class'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    const tenant = config.metricsTenantLabels ? ['tenant'] : [];
    this.steps = new Counter({
      name: 'supportdesk_steps_total',
      help: 'Steps applied (committed and durable), by action type and transport',
      labelNames: ['action', 'transport', ...tenant],
      registers,
    });
    this.resets = new Counter({ name: 'supportdesk_resets_total', help: 'Episodes started, by transport', labelNames: ['transport', ...tenant], registers });
    // `invalid` is never expected (actions are validated first): its series appears only if one is counted.
    const stepChild = (action: ActionLabel, transport: Transport) =>
      action === 'invalid' ? this.steps.labels({ action, transport }) : zeroed(this.steps, { action, transport });
    this.stepChildren = config.metricsTenantLabels ? null : byKey(TRANSPORTS, (transport) => byKey(ACTION_LABELS, (action) => stepChild(action, transport)));
    this.resetChildren = config.metricsTenantLabels ? null : byKey(RESET_TRANSPORTS, (transport) => zeroed(this.resets, { transport }));
    this.grading = new Histogram({
      name: 'supportdesk_grading_duration_seconds',
      help: 'Time the engine takes to apply an action and grade the new state (nearly all of it grading), per step computed',
      buckets: GRADING_BUCKETS,
      registers,
    });
    const refusals = new Counter({ name: 'supportdesk_auth_rejections_total', help: 'Requests and /ws messages refused by authentication, by reason', labelNames: ['reason'], registers });
    this.refusals = byKey(AUTH_REJECTIONS, (reason) => zeroed(refusals, { reason }));
    const limited = new Counter({ name: 'supportdesk_rate_limited_total', help: 'Requests answered 429 by a rate limit, by limit', labelNames: ['kind'], registers });
    this.limited = byKey(RATE_LIMITS, (kind) => zeroed(limited, { kind }));
    gaugeReadAtScrape(this.registry, 'supportdesk_ws_sessions_open', 'Open /ws sessions', () => this.openSessions.ws());
    gaugeReadAtScrape(this.registry, 'supportdesk_mcp_sessions_open', 'Open sessions on /mcp (MCP and OpenEnv HTTP sessions), of the whole deployment: every replica reports the same count', () => this.openSessions.mcp());
  }

  /** One HTTP response; `route` is the template the request matched (undefined: none matched). */
  httpResponse(method: string, route: string | undefined, status: number, seconds: number): void {
    const template = route ?? UNMATCHED_ROUTE;
    const series = this.httpSeries.get(template)?.get(method)?.get(status) ?? this.newHttpSeries(method, template, status);
    series.requests.inc();
    series.duration.observe(seconds);
  }

  private newHttpSeries(method: string, route: string, status: number): HttpSeries {
    const series = {
      requests: this.httpRequests.labels({ method, route, status: String(status) }),
      duration: this.httpDuration.labels({ method, route, status_class: `${Math.floor(status / 100)}xx` }),
    };
    let byMethod = this.httpSeries.get(route);
    if (!byMethod) this.httpSeries.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    byStatus.set(status, series);
    return series;
  }

  stepApplied(transport: Transport, action: string, tenantId: string): void {
    const label: ActionLabel = (ACTION_TYPES as readonly string[]).includes(action) ? (action as ActionLabel) : 'invalid';
    if (this.stepChildren) this.stepChildren[transport][label].inc();
    else this.steps.inc({ action: label, transport, tenant: tenantId });
  }

  resetApplied(transport: ResetTransport, tenantId: string): void {
    if (this.resetChildren) this.resetChildren[transport].inc();
    else this.resets.inc({ transport, tenant: tenantId });
  }

  /** Runs the engine's step (which grades the state it leads to) and records how long it took. */
  timeGrading<T>(grade: () => T): T {
    const started = performance.now();
    const result = grade();
    this.grading.observe((performance.now() - started) / 1000);
    return result;
  }

  authRejected(reason: AuthRejection): void {
    this.refusals[reason].inc();
  }

  rateLimited(kind: RateLimitKind): void {
    this.limited[kind].inc();
  }

  /** How to count the sessions a transport holds open; read at each scrape. */
  readOpenSessions(transport: 'ws' | 'mcp', count: () => number | Promise<number>): void {
    this.openSessions[transport] = count;
  }

  /** Every metric in the text exposition format, and its content type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}

/** A gauge whose value is read when it is scraped (prom-client calls `collect` before it writes the gauge out). */
export function gaugeReadAtScrape(registry: Registry, name: string, help: string, read: () => number | Promise<number>): Gauge {
  return new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      this.set(await read());
    },
  });
}

/** The child of a label set, made present at 0 so a rate over it starts at the first scrape, not the first event. */
function zeroed<T extends string>(counter: Counter<T>, labels: Partial<Record<T, string>>): Counter.Internal {
  const child = counter.labels(labels);
  child.inc(0);
  return child;
}

function byKey<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
}
