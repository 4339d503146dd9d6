import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder holding package.json (the repository, or /app in the image), found by walking up from this file,
 * so paths to seeds/, prisma/ and README.md are right from src/ (tests), dist/ (the server) and build/ (tools).
 */
export const PROJECT_ROOT: string = findRoot(__dirname);

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}
