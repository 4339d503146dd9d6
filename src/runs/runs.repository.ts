import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.service';
import { sqliteTimestamp } from '../database/sqlite-timestamp';
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

  find(tenantId: string, runId: string): RunRow | null {
    return this.database.read((sql) => (sql.statement(RUN_STATEMENTS.selectRun).get(runId, tenantId) as RunRow | undefined) ?? null);
  }

  list(tenantId: string, filters: RunListFilters, cursor: { at: Date; id: string } | null, limit: number): RunRow[] {
    return this.database.read((sql) => listRuns(sql, tenantId, filters, cursor, limit));
  }

  latestCompleteRuns(tenantId: string, split: string): RunRow[] {
    return this.database.read((sql) => sql.statement(RUN_STATEMENTS.latestCompleteRuns).all({ tenantId, split }) as RunRow[]);
  }

  cellCounts(tenantId: string, runId: string): Map<string, number> {
    const rows = this.database.read((sql) => sql.statement(RUN_STATEMENTS.cellCounts).all(tenantId, runId) as { status: string; n: number }[]);
    return new Map(rows.map((row) => [row.status, row.n]));
  }

  cells(tenantId: string, runId: string, status: string | null, afterPosition: number, limit: number): CellRow[] {
    return this.database.read(
      (sql) => sql.statement(RUN_STATEMENTS.listCells).all({ tenantId, runId, status, after: afterPosition, limit }) as CellRow[],
    );
  }

  cellsWithEpisodes(tenantId: string, runId: string): CellWithEpisodeRow[] {
    return this.database.read((sql) => sql.statement(RUN_STATEMENTS.cellsWithEpisodes).all(tenantId, runId) as CellWithEpisodeRow[]);
  }

  cellOfEpisode(tenantId: string, runId: string, episodeId: string): CellRow | null {
    return this.database.read((sql) => (sql.statement(RUN_STATEMENTS.selectCellOfEpisode).get(tenantId, runId, episodeId) as CellRow | undefined) ?? null);
  }

  addTokens(tenantId: string, runId: string, episodeId: string, input: number | null, output: number | null): Promise<void> {
    return this.database.batched((sql) => {
      sql.statement(RUN_STATEMENTS.addTokens).run({ tenantId, runId, episodeId, input, output });
    });
  }

  episodeForExport(tenantId: string, episodeId: string): ExportedEpisodeRow | null {
    return this.database.read((sql) => (sql.statement(RUN_STATEMENTS.episodeForExport).get(tenantId, episodeId) as ExportedEpisodeRow | undefined) ?? null);
  }

  /** An episode's action log, in step order. */
  actionLogOf(tenantId: string, episodeId: string): ActionLogRecord[] {
    const rows = this.database.read((sql) => sql.statement(RUN_STATEMENTS.episodeActionLog).all({ tenant: tenantId, episode: episodeId }) as (Omit<ActionLogRecord, 'createdAt'> & { createdAt: number })[]);
    return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
  }

  /** An episode's logged actions, in order, as canonical JSON. */
  actionsOf(tenantId: string, episodeId: string): string[] {
    return this.database.read((sql) => (sql.statement(RUN_STATEMENTS.episodeActions).all({ tenant: tenantId, episode: episodeId }) as { actionJson: string }[]).map((row) => row.actionJson));
  }

  saveRegrade(tenantId: string, regrade: { id: string; runId: string; graderVersion: number; createdAt: Date }, results: NewRegradeResult[]): Promise<void> {
    return this.database.batched((sql) => {
      const changed = results.filter((r) => r.changed).length;
      sql
        .statement(RUN_STATEMENTS.insertRegrade)
        .run(regrade.id, regrade.runId, tenantId, regrade.graderVersion, results.length, changed, sqliteTimestamp(regrade.createdAt));
      const insert = sql.statement(RUN_STATEMENTS.insertRegradeResult);
      for (const r of results) {
        insert.run(regrade.id, tenantId, r.taskId, r.seed, r.trial, r.episodeId, r.scoreMilli, r.beforeMilli, r.changed ? 1 : 0, r.componentsJson);
      }
    });
  }

  findRegrade(tenantId: string, runId: string, regradeId: string): { regrade: RegradeRow; results: RegradeResultRow[] } | null {
    return this.database.read((sql) => {
      const regrade = sql.statement(RUN_STATEMENTS.selectRegrade).get(regradeId, tenantId, runId) as RegradeRow | undefined;
      if (!regrade) return null;
      const results = sql.statement(RUN_STATEMENTS.regradeResults).all({ tenantId, regradeId, runId }) as RegradeResultRow[];
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
