import { Injectable } from '@nestjs/common';
import { APP_VERSION } from '../common/app-version';
import { Database } from '../database/database.service';
import { ReplicaCoordination } from '../replicas';
import { TaskCatalog } from '../tasks/task-catalog.service';
import type { HealthDto } from './health.dto';

@Injectable()
export class HealthService {
  private readonly startedAt = Date.now();

  constructor(
    private readonly database: Database,
    private readonly catalog: TaskCatalog,
    private readonly replicas: ReplicaCoordination,
  ) {}

  async check(): Promise<HealthDto> {
    let database = 'ok';
    try {
      await this.database.ping();
    } catch (error) {
      database = `error: ${(error as Error).message.split('\n')[0]}`;
    }
    return {
      status: database === 'ok' ? 'healthy' : 'unhealthy',
      database,
      database_kind: this.database.kind,
      version: APP_VERSION,
      tasks: this.catalog.list().length,
      uptime_seconds: Math.round((Date.now() - this.startedAt) / 1000),
      replica: { id: this.replicas.replicaId, leader: this.replicas.isLeader() },
    };
  }
}
