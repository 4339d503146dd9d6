import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checksumLine, readChecksumFile, sha256OfFile } from './checksums';

describe('checksum files in sha256sum format', () => {
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-checksums-'));

  it('writes the name relative to the folder, and reads text and binary-mode lines back', async () => {
    const file = join(dir, 'backup.db');
    writeFileSync(file, 'abc');
    const sum = await sha256OfFile(file);
    expect(sum).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(checksumLine(sum, file)).toBe(`${sum}  backup.db`);
    writeFileSync(join(dir, 'backup.db.sha256'), `${sum}  backup.db\n${'0'.repeat(64)} *backup.db.ledger-checkpoints\n`);
    expect([...readChecksumFile(join(dir, 'backup.db.sha256'))]).toEqual([
      ['backup.db', sum],
      ['backup.db.ledger-checkpoints', '0'.repeat(64)],
    ]);
  });

  it('refuses a file that is not one, rather than trusting part of it', () => {
    writeFileSync(join(dir, 'bad.sha256'), 'ba78  backup.db\n');
    expect(() => readChecksumFile(join(dir, 'bad.sha256'))).toThrow(/is not a sha256sum file/);
    expect(() => readChecksumFile(join(dir, 'missing.sha256'))).toThrow(/no checksum file/);
  });
});
