import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.service';

/** Task versions are global content (not tenant data): every tenant runs the same catalogue. */
@Injectable()
export class TaskVersionRepository {
  constructor(private readonly database: Database) {}

  /** Records a version once; an existing (task, version) row is left as it is, since its content is identical. */
  saveIfMissing(taskId: string, version: string, contentJson: string): Promise<void> {
    return this.database.serialized(async (db) => {
      await db.taskVersion.upsert({
        where: { taskId_version: { taskId, version } },
        create: { taskId, version, contentJson },
        update: {},
      });
    });
  }

  /** Every stored version (one row per task file version ever synced: a handful). */
  listAll(): Promise<{ taskId: string; version: string; contentJson: string }[]> {
    return this.database.serialized((db) =>
      db.taskVersion.findMany({ select: { taskId: true, version: true, contentJson: true } }),
    );
  }

  findContent(taskId: string, version: string): Promise<string | null> {
    return this.database.serialized(async (db) => {
      const row = await db.taskVersion.findUnique({ where: { taskId_version: { taskId, version } } });
      return row?.contentJson ?? null;
    });
  }
}
