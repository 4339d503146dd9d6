import { listEpisodesSql, repeatedTestPlaysSql, scoreHistogramSql } from '../../src/audit/audit.repository';
import type { AuditScope, EpisodeFilters } from '../../src/audit/audit-scope';
import { EPISODE_STATEMENTS } from '../../src/episodes/episode-statements';
import { CHECKPOINT_STATEMENTS } from '../../src/episodes/ledger/ledger-checkpoints';
import { ENROLLMENT_STATEMENTS } from '../../src/episodes/ledger/ledger-enrollment';
import { LEDGER_ROW_STATEMENTS } from '../../src/episodes/ledger/ledger-rows';
import { LEDGER_STATEMENTS } from '../../src/episodes/ledger/ledger-statements';
import { PURGE_STATEMENTS, TENANT_DELETION_STATEMENTS } from '../../src/episodes/purge/purge-statements';
import { SIGNED_FACT_STATEMENTS } from '../../src/episodes/purge/signed-facts';
import { RUN_CELL_STATEMENTS } from '../../src/episodes/run-cells/run-cell-statements';
import { METRICS_STATEMENTS } from '../../src/metrics/metrics-statements';
import { RUN_STATEMENTS } from '../../src/runs/run-statements';

/**
 * Every statement the repositories run outside Prisma's model queries, by the file that snapshots it: the direct
 * connection's statements, and the audit's raw queries for each kind of scope, filter and cursor. The SQLite
 * snapshots (test/medium/sql-snapshots.spec.ts) and the PostgreSQL check (test/postgres/statements.spec.ts) both
 * read this list, so a statement added to one is checked by the other.
 */
export interface StatementGroup {
  file: string;
  title: string;
  statements: Array<[name: string, sql: string]>;
}

const tenant: AuditScope = { kind: 'tenant', tenantId: 'lab' };
const everyFilter: EpisodeFilters = {
  taskId: 't',
  status: 'resolved',
  agent: 'a',
  runLabel: 'r',
  variant: 'generated',
  split: 'test',
  feedback: 'final',
  runId: 'run_1',
  tag: 'eval',
  createdAfter: new Date(0),
  createdBefore: new Date(0),
  minScoreMilli: 0,
  maxScoreMilli: 1000,
  repeatedTestPlay: true,
};

const statisticsCases: [string, AuditScope, EpisodeFilters, boolean][] = [
  ['one tenant, no filter', tenant, {}, false],
  ['one tenant, grouped by agent', tenant, {}, true],
  ['one tenant, every filter', tenant, everyFilter, false],
  ['all tenants (admin), one task', { kind: 'all' }, { taskId: 't' }, false],
];

const cursor = { createdAt: new Date(0), serial: 4242 };
const listingCases: [string, AuditScope, EpisodeFilters, typeof cursor | null][] = [
  ['one tenant, first page', tenant, {}, null],
  ['one tenant, next page', tenant, {}, cursor],
  ['one tenant, one task', tenant, { taskId: 't' }, cursor],
  ['one tenant, one agent', tenant, { agent: 'a' }, null],
  ['one tenant, repeated test plays', tenant, { repeatedTestPlay: true }, null],
  ['one tenant, every filter', tenant, everyFilter, cursor],
  ['all tenants (admin), first page', { kind: 'all' }, {}, null],
];

export const STATEMENT_GROUPS: StatementGroup[] = [
  {
    file: 'src/episodes/queries/episode-statements.sql',
    title: 'Statements of the step hot path (src/episodes/episode-statements.ts), on the direct connection.',
    statements: Object.entries(EPISODE_STATEMENTS),
  },
  {
    file: 'src/episodes/queries/ledger-statements.sql',
    title: 'Statements of the tenant ledger (src/episodes/ledger/): its entries in both tables, appends in the step hot path, checkpoints and enrolment.',
    statements: [...Object.entries(LEDGER_ROW_STATEMENTS), ...Object.entries(LEDGER_STATEMENTS), ...Object.entries(CHECKPOINT_STATEMENTS), ...Object.entries(ENROLLMENT_STATEMENTS)],
  },
  {
    file: 'src/episodes/queries/purge-statements.sql',
    title: 'Statements of purges (src/episodes/purge/): retention and tenant deletion, on the direct connection.',
    statements: [...Object.entries(PURGE_STATEMENTS), ...Object.entries(SIGNED_FACT_STATEMENTS), ...Object.entries(TENANT_DELETION_STATEMENTS)],
  },
  {
    file: 'src/episodes/queries/run-cell-statements.sql',
    title: 'Statements of run cells in the step path (src/episodes/run-cells/run-cell-statements.ts), on the direct connection.',
    statements: Object.entries(RUN_CELL_STATEMENTS),
  },
  {
    file: 'src/metrics/queries/metrics-statements.sql',
    title: 'Statements GET /metrics runs when scraped (src/metrics/metrics-statements.ts), on the direct connection.',
    statements: Object.entries(METRICS_STATEMENTS),
  },
  {
    file: 'src/runs/queries/run-statements.sql',
    title: 'Statements of evaluation runs (src/runs/run-statements.ts), on the direct connection.',
    statements: Object.entries(RUN_STATEMENTS),
  },
  {
    file: 'src/audit/queries/score-histogram.sql',
    title: 'The statistics queries (src/audit/audit.repository.ts scoreHistogramSql, then repeatedTestPlaysSql) for each kind of scope and filter.',
    statements: [
      ...statisticsCases.map(([name, scope, filters, byAgent]): [string, string] => [name, scoreHistogramSql(scope, filters, byAgent).sql]),
      ...statisticsCases.map(([name, scope, filters, byAgent]): [string, string] => [`repeated test plays: ${name}`, repeatedTestPlaysSql(scope, filters, byAgent).sql]),
    ],
  },
  {
    file: 'src/audit/queries/list-episodes.sql',
    title: 'A page of the listing and the export (src/audit/audit.repository.ts listEpisodesSql) for each kind of scope, filter and cursor.',
    statements: listingCases.map(([name, scope, filters, after]) => [name, listEpisodesSql(scope, filters, after, 50).sql]),
  },
];
