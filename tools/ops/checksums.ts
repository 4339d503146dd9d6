import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

/*
 * Checksums in the format of coreutils' `sha256sum` ("<hex>  <name>" per line, the name relative to the file's
 * folder), so an operator can check a backup with `sha256sum -c` as well as with the restore tool.
 */

/** The sha256 of a file's bytes, read as a stream (a backup may be larger than memory would like). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** One line of a `sha256sum` file for a file in the same folder. */
export function checksumLine(sha256: string, path: string): string {
  return `${sha256}  ${basename(path)}`;
}

/** The checksum file of a backup: the file's name with `.sha256` added. */
export function checksumFileOf(path: string): string {
  return `${path}.sha256`;
}

/**
 * The lines of a `sha256sum` file, by name (`*name`, binary mode, is the same name). Throws on a line that is not a
 * checksum line: a file that does not parse is no evidence of anything.
 */
export function readChecksumFile(path: string): Map<string, string> {
  if (!existsSync(path)) throw new Error(`no checksum file ${path}`);
  const entries = new Map<string, string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!match) throw new Error(`${path} is not a sha256sum file: "${line.slice(0, 80)}"`);
    entries.set(match[2], match[1]);
  }
  return entries;
}
