import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.service';
import type { ActionLogRecord } from '../episodes';
import {
  insertRunWithCells,
  listRuns,
  RUN_STATEMENTS,
  type CellRow,
  type CellWithEpisodeRow,
  type NewRunRow,
  type RegradeResultRow,
  type RegradeRow,
  type RunListFilters,
  type RunRow,
} from './run-statements';

/** One regraded cell, as stored. */
export interface NewRegradeResult {
  taskId: string;
  seed: number;
  trial: number;
  episodeId: string;
  scoreMilli: number;
  beforeMilli: number;
  changed: boolean;
  componentsJson: string;
}

/**
 * Runs, their cells and their regrades, tenant first in every method. The cells' life (claimed, finished, abandoned,
 * failed) is written by the episodes' own writes (src/episodes/run-cells); this repository creates runs and reads.
 */
@Injectable()
export class RunsRepository {
  constructor(private readonly database: Database) {}

  create(run: NewRunRow, cells: { taskId: string; seed: number; trial: number }[]): Promise<void> {
    return this.database.batched((sql) => insertRunWithCells(sql, run, cells));
  }

  async find(tenantId: string, runId: string): Promise<RunRow | null> {
    return (await this.database.read((sql) => sql.get<RunRow>(RUN_STATEMENTS.selectRun, [runId, tenantId]))) ?? null;
  }

  list(tenantId: string, filters: RunListFilters, cursor: { at: Date; id: string } | null, limit: number): Promise<RunRow[]> {
    return this.database.read((sql) => listRuns(sql, tenantId, filters, cursor, limit));
  }

  latestCompleteRuns(tenantId: string, split: string): Promise<RunRow[]> {
    return this.database.read((sql) => sql.all<RunRow>(RUN_STATEMENTS.latestCompleteRuns, { tenantId, split }));
  }

  async cellCounts(tenantId: string, runId: string): Promise<Map<string, number>> {
    const rows = await this.database.read((sql) => sql.all<{ status: string; n: number }>(RUN_STATEMENTS.cellCounts, [tenantId, runId]));
    return new Map(rows.map((row) => [row.status, row.n]));
  }

  cells(tenantId: string, runId: string, status: string | null, afterPosition: number, limit: number): Promise<CellRow[]> {
    return this.database.read((sql) => sql.all<CellRow>(RUN_STATEMENTS.listCells, { tenantId, runId, status, after: afterPosition, limit }));
  }

  cellsWithEpisodes(tenantId: string, runId: string): Promise<CellWithEpisodeRow[]> {
    return this.database.read((sql) => sql.all<CellWithEpisodeRow>(RUN_STATEMENTS.cellsWithEpisodes, [tenantId, runId]));
  }

  async cellOfEpisode(tenantId: string, runId: string, episodeId: string): Promise<CellRow | null> {
    return (await this.database.read((sql) => sql.get<CellRow>(RUN_STATEMENTS.selectCellOfEpisode, [tenantId, runId, episodeId]))) ?? null;
  }

  addTokens(tenantId: string, runId: string, episodeId: string, input: number | null, output: number | null): Promise<void> {
    return this.database.batched(async (sql) => {
      await sql.run(RUN_STATEMENTS.addTokens, { tenantId, runId, episodeId, input, output });
    });
  }

  async episodeForExport(tenantId: string, episodeId: string): Promise<ExportedEpisodeRow | null> {
    return (await this.database.read((sql) => sql.get<ExportedEpisodeRow>(RUN_STATEMENTS.episodeForExport, [tenantId, episodeId]))) ?? null;
  }

  /** An episode's action log, in step order. */
  async actionLogOf(tenantId: string, episodeId: string): Promise<ActionLogRecord[]> {
    type Stored = Omit<ActionLogRecord, 'createdAt'> & { createdAt: number };
    const rows = await this.database.read((sql) => sql.all<Stored>(RUN_STATEMENTS.episodeActionLog, { tenant: tenantId, episode: episodeId }));
    return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
  }

  /** An episode's logged actions, in order, as canonical JSON. */
  async actionsOf(tenantId: string, episodeId: string): Promise<string[]> {
    const rows = await this.database.read((sql) => sql.all<{ actionJson: string }>(RUN_STATEMENTS.episodeActions, { tenant: tenantId, episode: episodeId }));
    return rows.map((row) => row.actionJson);
  }

  saveRegrade(tenantId: string, regrade: { id: string; runId: string; graderVersion: number; createdAt: Date }, results: NewRegradeResult[]): Promise<void> {
    return this.database.batched(async (sql) => {
      const changed = results.filter((r) => r.changed).length;
      await sql.run(RUN_STATEMENTS.insertRegrade, [regrade.id, regrade.runId, tenantId, regrade.graderVersion, results.length, changed, regrade.createdAt]);
      for (const r of results) {
        await sql.run(RUN_STATEMENTS.insertRegradeResult, [regrade.id, tenantId, r.taskId, r.seed, r.trial, r.episodeId, r.scoreMilli, r.beforeMilli, r.changed ? 1 : 0, r.componentsJson]);
      }
    });
  }

  findRegrade(tenantId: string, runId: string, regradeId: string): Promise<{ regrade: RegradeRow; results: RegradeResultRow[] } | null> {
    return this.database.read(async (sql) => {
      const regrade = await sql.get<RegradeRow>(RUN_STATEMENTS.selectRegrade, [regradeId, tenantId, runId]);
      if (!regrade) return null;
      const results = await sql.all<RegradeResultRow>(RUN_STATEMENTS.regradeResults, { tenantId, regradeId, runId });
      return { regrade, results };
    });
  }
}

/** What a run export reads of a cell's episode besides its log. */
export interface ExportedEpisodeRow {
  taskVersion: string;
  graderVersion: number;
  seed: number;
  /** The snapshot, or SNAPSHOT_DROPPED once the episode has ended (replay it). */
  stateJson: string;
}
