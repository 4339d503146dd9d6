import { statSync } from 'node:fs';
import { Inject, Injectable } from '@nestjs/common';
import { Histogram } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../database/database.service';
import { countAllActiveEpisodes } from './metrics-statements';
import { gaugeReadAtScrape, Metrics } from './metrics';

/**
 * The database's side of the metrics: the active episodes (one indexed count on the direct connection) and the
 * database's size (SQLite: the file and its WAL; PostgreSQL: pg_database_size), read when scraped; and each group
 * commit's size and time, which the Database tells as it makes batches durable (the group commit itself knows
 * nothing of metrics).
 */
@Injectable()
export class StorageMetrics {
  constructor(metrics: Metrics, database: Database, @Inject(APP_CONFIG) config: AppConfig) {
    const registry = metrics.registry;
    gaugeReadAtScrape(registry, 'supportdesk_episodes_active', 'Active episodes, every tenant', () => database.read(countAllActiveEpisodes));
    if (database.kind === 'postgresql') {
      gaugeReadAtScrape(registry, 'supportdesk_database_bytes', 'Size of the PostgreSQL database (pg_database_size)', () =>
        database.read(async (sql) => (await sql.get<{ bytes: number }>('SELECT pg_database_size(current_database()) AS bytes'))!.bytes),
      );
    } else {
      const file = config.databaseUrl.slice('file:'.length);
      gaugeReadAtScrape(registry, 'supportdesk_database_bytes', 'Size of the SQLite database file', () => sizeOf(file));
      gaugeReadAtScrape(registry, 'supportdesk_wal_bytes', 'Size of the SQLite write-ahead log (-wal); it shrinks back at checkpoints', () => sizeOf(`${file}-wal`));
    }
    const batchSize = new Histogram({
      name: 'supportdesk_commit_batch_size',
      help: 'Writes (a step, a reset, …) in each group commit',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'supportdesk_commit_duration_seconds',
      help: 'Time from a group commit’s BEGIN until it is durable: its writes, COMMIT and the WAL sync',
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    database.observeCommits((writes, seconds) => {
      batchSize.observe(writes);
      duration.observe(seconds);
    });
  }
}

/** A file's size in bytes; 0 when there is none (no WAL between checkpoints of a closed database). */
function sizeOf(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}
