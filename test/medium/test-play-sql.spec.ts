import BetterSqlite3 from 'better-sqlite3';
import { testPlaySql } from '../../src/audit/audit.repository';
import { instanceOf } from '../../src/episodes/episode.presenter';

/*
 * The audit routes find test-split episodes in SQL (repeated test plays); the API decides the split in TypeScript
 * (instanceOf: a generator's task version and a test seed). The two must agree on every kind of stored version.
 */

it('testPlaySql says "test" exactly where instanceOf gives the test split', () => {
  const db = new BetterSqlite3(':memory:');
  const statement = db.prepare(`SELECT ${testPlaySql('e')} AS test FROM (SELECT ? AS seed, ? AS task_version) e`);
  const versions = ['g1', 'g2', 'g3', 'g12', 'g999999', 'g1000000', 'g0', 'g01', 'g', 'gx', 'g2a', 'g2 ', 'G2', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'];
  const seeds = [0, 1, 4, 5, 6, 10, 35, 36, 45, 1_000_000_000, 999_999_999];
  for (const version of versions) {
    for (const seed of seeds) {
      const { test } = statement.get(seed, version) as { test: number };
      expect([version, seed, test === 1]).toEqual([version, seed, instanceOf({ taskVersion: version, seed, splitSource: 'public', splitKeyId: null }).split === 'test']);
    }
  }
  db.close();
});
