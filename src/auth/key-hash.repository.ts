import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.service';

/**
 * The one question authentication asks the database itself: does a valid (not revoked) key have this hash? One
 * indexed read on the direct connection — a few microseconds, no Prisma and no lock — so it can be asked of every
 * request from an address over its failed-authentication budget, and a valid key is never turned away with them.
 * (Looking a key up to build its principal goes through TenantRepository, as before.)
 */
@Injectable()
export class KeyHashRepository {
  constructor(private readonly database: Database) {}

  isValidKeyHash(hash: string): boolean {
    return this.database.read((sql) => sql.statement('SELECT 1 FROM api_keys WHERE hash = ? AND revoked_at IS NULL').get(hash) !== undefined);
  }
}
