import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root';

/*
 * `node build/tools/ci/assemble-runtime-stage.js`: assembles the Docker image's runtime stage without Docker, so
 * CI starts exactly what the image would hold (a file the Dockerfile copies that has moved fails here, not in a
 * user's `docker build`). It reads the Dockerfile:
 *  - the build stage's result is emulated in a folder: the built server (dist/), the installed node_modules
 *    pruned to production dependencies with `npm prune --omit=dev` (as the build stage does), and the files that
 *    stage copies from the context;
 *  - every COPY of the last stage is then carried out into the runtime folder: `--from=build` ones from the
 *    emulated build folder, the others from the build context (the repository, minus .dockerignore);
 *  - the last stage's ENV lines are written to runtime.env (KEY=VALUE lines) for the caller to start it with.
 * Prints the runtime folder. The caller runs it as an unprivileged user with the folder read-only.
 */

interface Copy {
  from: 'build' | 'context';
  sources: string[];
  target: string;
}

function main(): void {
  const dockerfile = readFileSync(join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
  const stages = splitStages(dockerfile);
  const [buildStage, runtimeStage] = [stages[0], stages[stages.length - 1]];
  const work = mkdtempSync(join(tmpdir(), 'supportdesk-image-'));
  const build = join(work, 'build');
  const runtime = join(work, 'app');
  mkdirSync(build);
  mkdirSync(runtime);

  // The build stage: what it copies from the context, the built server, and production dependencies only.
  for (const copy of copiesOf(buildStage)) carryOut(copy, PROJECT_ROOT, build);
  if (!existsSync(join(PROJECT_ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first');
  cpSync(join(PROJECT_ROOT, 'dist'), join(build, 'dist'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'node_modules'), join(build, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  execFileSync('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: build, stdio: 'inherit' });

  // The runtime stage, COPY by COPY.
  const ignored = dockerignore();
  for (const copy of copiesOf(runtimeStage)) {
    carryOut(copy, copy.from === 'build' ? build : PROJECT_ROOT, runtime, copy.from === 'context' ? ignored : []);
  }
  writeFileSync(join(work, 'runtime.env'), envOf(runtimeStage).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
  console.log(runtime);
}

/** The Dockerfile's stages, each as its list of instructions (continuation lines joined). */
function splitStages(dockerfile: string): string[][] {
  const instructions = dockerfile
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: string[][] = [];
  for (const instruction of instructions) {
    if (/^FROM\s/i.test(instruction)) stages.push([]);
    stages[stages.length - 1]?.push(instruction);
  }
  return stages;
}

function copiesOf(stage: string[]): Copy[] {
  return stage
    .filter((instruction) => /^COPY\s/i.test(instruction))
    .map((instruction) => {
      const words = instruction.split(/\s+/).slice(1);
      const flags = words.filter((w) => w.startsWith('--'));
      const paths = words.filter((w) => !w.startsWith('--'));
      const from = flags.some((f) => f === '--from=build') ? 'build' : 'context';
      const unknown = flags.filter((f) => f !== '--from=build' && !f.startsWith('--chown='));
      if (unknown.length > 0) throw new Error(`unsupported COPY flags: ${unknown.join(' ')}`);
      return { from, sources: paths.slice(0, -1), target: paths[paths.length - 1] };
    });
}

/** One COPY: sources relative to `root` (or /app in the build stage), into `target` under `into` (WORKDIR /app). */
function carryOut(copy: Copy, root: string, into: string, ignored: RegExp[] = []): void {
  const targetIsFolder = copy.target.endsWith('/') || copy.sources.length > 1;
  for (const source of copy.sources) {
    const path = join(root, source.replace(/^\/app\/?/, ''));
    if (!existsSync(path)) throw new Error(`the Dockerfile copies ${source}, which does not exist`);
    const destination = targetIsFolder ? join(into, copy.target, source.split('/').filter(Boolean).pop()!) : join(into, copy.target);
    mkdirSync(dirname(destination), { recursive: true });
    cpSync(path, destination, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (file) => !ignored.some((pattern) => pattern.test(relative(root, file))),
    });
  }
}

/** .dockerignore as patterns over paths relative to the context. */
function dockerignore(): RegExp[] {
  const file = join(PROJECT_ROOT, '.dockerignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((pattern) => {
      const body = pattern.replace(/\/$/, '').replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*');
      return new RegExp(`^${body}(/|$)`);
    });
}

/** The stage's ENV instructions as [name, value] pairs (`ENV A=1 B=2` form). */
function envOf(stage: string[]): [string, string][] {
  return stage
    .filter((instruction) => /^ENV\s/i.test(instruction))
    .flatMap((instruction) => [...instruction.slice(4).matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)].map((m) => [m[1], m[2].replace(/^"|"$/g, '')] as [string, string]));
}

main();
