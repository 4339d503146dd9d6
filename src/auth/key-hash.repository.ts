import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.service';

/**
 * The one question authentication asks the database itself: does a valid (not revoked) key have this hash? One
 * indexed read on the direct connection — a few microseconds on SQLite, no Prisma and no lock — so it can be asked of every
 * request from an address over its failed-authentication budget, and a valid key is never turned away with them.
 * (Looking a key up to build its principal goes through TenantRepository, as before.)
 */
@Injectable()
export class KeyHashRepository {
  constructor(private readonly database: Database) {}

  async isValidKeyHash(hash: string): Promise<boolean> {
    return (await this.database.read((sql) => sql.get('SELECT 1 FROM api_keys WHERE hash = ? AND revoked_at IS NULL', [hash]))) !== undefined;
  }
}
