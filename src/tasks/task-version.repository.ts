import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** Task versions are global content (not tenant data): every tenant runs the same catalogue. */
@Injectable()
export class TaskVersionRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Records a version once; an existing (task, version) row is left as it is, since its content is identical. */
  saveIfMissing(taskId: string, version: string, contentJson: string): Promise<void> {
    return this.prisma.serialized(async (db) => {
      await db.taskVersion.upsert({
        where: { taskId_version: { taskId, version } },
        create: { taskId, version, contentJson },
        update: {},
      });
    });
  }

  /** Every stored version (one row per task file version ever synced: a handful). */
  listAll(): Promise<{ taskId: string; version: string; contentJson: string }[]> {
    return this.prisma.serialized((db) =>
      db.taskVersion.findMany({ select: { taskId: true, version: true, contentJson: true } }),
    );
  }

  findContent(taskId: string, version: string): Promise<string | null> {
    return this.prisma.serialized(async (db) => {
      const row = await db.taskVersion.findUnique({ where: { taskId_version: { taskId, version } } });
      return row?.contentJson ?? null;
    });
  }
}
