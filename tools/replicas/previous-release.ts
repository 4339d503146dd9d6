import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../bench/server-process';

/**
 * The release a rolling upgrade starts from: the commit of main before the changes this release brings to the
 * database (a release bumps it when it ships: docs/replicas.md, "Rolling upgrades"). UPGRADE_FROM overrides it.
 */
export const UPGRADE_FROM = process.env.UPGRADE_FROM ?? readFileSync(join(ROOT, 'tools', 'replicas', 'upgrade-from'), 'utf8').trim();

/**
 * Builds another release of this repository (a commit of its history) in a folder of its own: its files as
 * committed, its dependencies (this checkout's node_modules when its lock file is the same, `npm ci` otherwise),
 * its Prisma clients and its server (dist/main.js). Returns the folder; `remove` deletes it.
 */
export function buildRelease(commit: string): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'supportdesk-release-'));
  const remove = () => rmSync(root, { recursive: true, force: true });
  try {
    const run = (command: string, args: string[], cwd = root) => execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
    execFileSync('bash', ['-c', `git -C "${ROOT}" archive --format=tar "${commit}" | tar -x -C "${root}"`], { stdio: ['ignore', 'ignore', 'pipe'] });
    const sameLock = readFileSync(join(root, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8');
    if (sameLock) symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    else run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund']);
    const prisma = join(root, 'node_modules', 'prisma', 'build', 'index.js');
    run(process.execPath, [prisma, 'generate']);
    if (existsSync(join(root, 'prisma', 'postgresql', 'schema.prisma'))) run(process.execPath, [prisma, 'generate', '--schema', 'prisma/postgresql/schema.prisma']);
    run(process.execPath, [join(root, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build']);
    return { root, remove };
  } catch (error) {
    remove();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`building release ${commit} failed: ${(error as Error).message}\n${stderr.slice(-2000)}`);
  }
}
