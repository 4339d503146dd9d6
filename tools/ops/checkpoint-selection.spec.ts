import BetterSqlite3 from 'better-sqlite3';
import { newestCheckpoints, selectCheckpoints } from './checkpoint-selection';
import { readDatabasePoint } from './database-point';

/** A snapshot whose ledger `lab` holds entries 1-3 and 6 (4 and 5 purged, the gap keeping entry 5's MAC). */
function snapshot(): BetterSqlite3.Database {
  const db = new BetterSqlite3(':memory:');
  db.exec(`CREATE TABLE tenants (serial INTEGER PRIMARY KEY, id TEXT UNIQUE, slug TEXT);
    CREATE TABLE ledger_entries (tenant_id TEXT, seq INTEGER, mac TEXT, PRIMARY KEY (tenant_id, seq));
    CREATE TABLE ledger_gaps (tenant_id TEXT, first_seq INTEGER, last_seq INTEGER, last_mac TEXT, purge_seq INTEGER);
    INSERT INTO tenants VALUES (1, 't-lab', 'lab'), (2, 'public', 'public');
    INSERT INTO ledger_entries VALUES ('t-lab', 1, 'm1'), ('t-lab', 2, 'm2'), ('t-lab', 3, 'm3'), ('t-lab', 6, 'm6');
    INSERT INTO ledger_gaps VALUES ('t-lab', 4, 5, 'm5', 6);`);
  return db;
}

const line = (tenant: string, seq: number, mac: string, at = `2026-12-03T00:00:0${seq}Z`) =>
  JSON.stringify({ tenant_id: tenant, seq, mac, at, key_id: 'hk_x', sig: 's' });

describe('the checkpoint lines a backup carries', () => {
  it('keeps the lines its ledgers reach, in order, and leaves out those past a head', () => {
    const db = snapshot();
    const lines = [line('t-lab', 2, 'm2'), line('public', 1, 'p1'), line('t-lab', 6, 'm6'), line('t-lab', 7, 'm7'), line('t-new', 1, 'n1')];
    const selection = selectCheckpoints(db, readDatabasePoint(db), `${lines.join('\n')}\n`);
    expect(selection.kept).toEqual([lines[0], lines[2]]);
    expect(selection.beyond).toEqual([
      { tenant: 'public', seq: 1, at: '2026-12-03T00:00:01Z' },
      { tenant: 'lab', seq: 7, at: '2026-12-03T00:00:07Z' },
      { tenant: 't-new', seq: 1, at: '2026-12-03T00:00:01Z' },
    ]);
    expect(selection.contradicted).toEqual([]);
  });

  it('takes a checkpoint inside a purged stretch as held, as the server does, and keeps a rewritten one with a warning', () => {
    const db = snapshot();
    const lines = [line('t-lab', 4, 'm4'), line('t-lab', 5, 'm5'), line('t-lab', 3, 'forged'), line('t-lab', 5, 'other'), 'not json', '{"seq":1}'];
    const selection = selectCheckpoints(db, readDatabasePoint(db), lines.join('\n'));
    expect(selection.kept).toEqual(lines.slice(0, 4));
    expect(selection.contradicted.map((c) => [c.tenant, c.seq])).toEqual([
      ['lab', 3],
      ['lab', 5],
    ]);
    expect(selection.unreadable).toBe(2);
  });

  it("finds entries stored in their step's action_log row and in their episode's row (ledger_seq, binary ledger_mac) as well as in ledger_entries", () => {
    const db = snapshot();
    db.exec(`CREATE TABLE action_log (tenant_serial INTEGER, ledger_seq INTEGER, ledger_mac BLOB);
      INSERT INTO action_log VALUES (1, 7, x'00ff'), (1, NULL, NULL), (2, 9, x'0e0f');
      CREATE TABLE episodes (tenant_id TEXT, ledger_seq INTEGER, ledger_mac BLOB);
      INSERT INTO episodes VALUES ('t-lab', 8, x'0a0b'), ('t-lab', NULL, NULL), ('public', 10, x'1011');`);
    const point = readDatabasePoint(db);
    expect(point.ledgers.find((l) => l.tenant === 'lab')?.seq).toBe(8);
    const lines = [line('t-lab', 7, '00ff'), line('t-lab', 8, 'ffff'), line('t-lab', 9, '0c0d'), line('t-lab', 6, 'm6')];
    const selection = selectCheckpoints(db, point, `${lines.join('\n')}\n`);
    expect(selection.kept).toEqual([lines[0], lines[1], lines[3]]);
    expect(selection.contradicted.map((c) => [c.tenant, c.seq])).toEqual([['lab', 8]]);
    expect(selection.beyond.map((c) => [c.tenant, c.seq])).toEqual([['lab', 9]]);
  });

  it('reads the newest checkpoint per tenant as the server does: the last line wins', () => {
    expect(newestCheckpoints([line('t-lab', 6, 'm6'), line('t-lab', 2, 'm2'), ''].join('\n')).get('t-lab')).toEqual({ seq: 2, at: '2026-12-03T00:00:02Z' });
  });
});
