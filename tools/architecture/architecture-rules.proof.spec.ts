import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root';

/*
 * The import rules of .dependency-cruiser.cjs (ARCHITECTURE.md, "Import rules") can fire: each is run against a
 * deliberate violation, written into a scratch repository layout in the temp folder (never into src/), and must
 * report it; the allowed imports beside them must not. And the repository itself keeps every rule.
 */

const CONFIG = join(PROJECT_ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(PROJECT_ROOT, 'node_modules', '.bin', 'depcruise');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { forbidden } = require(CONFIG) as { forbidden: { name: string }[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LAYERS } = require(join(PROJECT_ROOT, 'tools', 'architecture', 'layers.cjs')) as { LAYERS: string[][] };

interface Probe {
  /** The violating (or allowed) file, relative to the scratch repository. */
  file: string;
  specifier: string;
  /** The rule that must report the import; null: the import is allowed and nothing may report it. */
  fires: string | null;
  typeOnly?: boolean;
}

const probe = (file: string, specifier: string, fires: string | null, typeOnly = false): Probe => ({ file, specifier, fires, typeOnly });

/** Every layer rule, against each folder it forbids: a folder on the same layer, or on a higher one. */
const layerProbes: Probe[] = LAYERS.flatMap((folders, rank) =>
  folders.flatMap((folder) =>
    LAYERS.flat()
      .filter((other) => other !== folder && LAYERS.findIndex((layer) => layer.includes(other)) >= rank)
      .map((other) =>
        probe(`src/${folder}/imports-${other.replace('.ts', '')}.ts`, other === 'main.ts' ? '../main' : `../${other}/index`, `layer-${folder}`),
      ),
  ),
);

const PROBES: Probe[] = [
  ...layerProbes,
  probe('src/engine/imports-node-fs.ts', 'node:fs', 'engine-is-pure'),
  probe('src/engine/imports-bare-path.ts', 'path', 'engine-is-pure'),
  probe('src/engine/imports-nest.ts', '@nestjs/common', 'engine-is-pure'),
  probe('src/engine/imports-prisma.ts', '@prisma/client', 'engine-is-pure'),
  probe('src/engine/imports-ws-types.ts', 'ws', 'engine-is-pure', true),
  probe('src/engine/imports-missing-package.ts', 'no-such-package-anywhere', 'engine-is-pure'),
  probe('src/engine/imports-tools.ts', '../../tools/thing', 'engine-is-pure'),
  probe('src/engine/imports-zod.ts', 'zod', null),
  probe('src/engine/imports-minisearch.ts', 'minisearch', null),
  probe('src/engine/imports-stopword.ts', 'stopword', null),
  probe('src/engine/imports-pure-rand.ts', 'pure-rand/distribution/uniformInt', null),
  probe('src/engine/deeper/imports-engine.ts', '../index', null),
  probe('src/engine/engine.spec.ts', 'node:fs', null),

  probe('src/families/alpha/imports-kit.ts', '../kit/index', null),
  probe('src/families/alpha/imports-shared.ts', '../shared/index', null),
  probe('src/families/alpha/deeper/imports-own-folder.ts', '../imports-kit', null),
  probe('src/families/alpha/imports-beta.ts', '../beta/index', 'family-kit-and-shared-only'),
  probe('src/families/alpha/imports-engine.ts', '../../engine/index', 'family-kit-and-shared-only'),
  probe('src/families/alpha/imports-episodes.ts', '../../episodes/index', 'family-kit-and-shared-only'),
  probe('src/families/alpha/imports-zod.ts', 'zod', 'family-kit-and-shared-only'),
  probe('src/families/alpha/imports-nest.ts', '@nestjs/common', 'family-kit-and-shared-only'),
  probe('src/families/alpha/imports-prisma.ts', '@prisma/client', 'family-kit-and-shared-only'),
  probe('src/families/alpha/imports-node-fs.ts', 'node:fs', 'family-kit-and-shared-only'),
  probe('src/families/alpha/alpha.spec.ts', 'node:fs', null),
  probe('src/families/kit/imports-engine.ts', '../../engine/index', null),
  probe('src/families/kit/imports-pure-rand.ts', 'pure-rand/generator/xoroshiro128plus', null),
  probe('src/families/shared/imports-kit.ts', '../kit/index', null),
  probe('src/families/kit/imports-node-fs.ts', 'node:fs', 'families-are-pure'),
  probe('src/families/kit/imports-http.ts', '../../http/index', 'families-are-pure'),
  probe('src/families/shared/imports-nest.ts', '@nestjs/common', 'families-are-pure'),
  probe('src/families/beta/imports-prisma.ts', '@prisma/client', 'families-are-pure'),

  probe('src/common/cycle-a.ts', './cycle-b', 'no-circular'), // cycle-b.ts imports it back (CYCLE_BACK)

  probe('src/audit/imports-episodes-inside.ts', '../episodes/inside', 'public-surface'),
  probe('src/audit/imports-episodes-surface.ts', '../episodes/index', null),
  probe('src/mcp/imports-episodes-inside.ts', '../episodes/inside', 'public-surface-between-surfaces'),
  probe('src/mcp/imports-episodes-surface.ts', '../episodes/index', null),
  probe('src/episodes/imports-own-inside.ts', './inside', null),

  probe('src/common/imports-tools.ts', '../../tools/thing', 'server-alone'),
  probe('src/common/imports-client.ts', '../../client/thing', 'server-alone'),
  probe('src/common/imports-test.ts', '../../test/thing', 'server-alone'),
  probe('src/common/common.spec.ts', '../../test/thing', null),

  probe('client/imports-src.ts', '../src/common/index', 'client-alone'),
  probe('client/imports-tools.ts', '../tools/thing', 'client-alone'),
  probe('client/imports-test.ts', '../test/thing', 'client-alone'),

  probe('console/src/imports-src.ts', '../../src/common/index', 'console-through-the-client'),
  probe('console/src/imports-tools.ts', '../../tools/thing', 'console-through-the-client'),
  probe('console/src/imports-client.ts', '../../client/thing', null),
  probe('src/common/imports-console.ts', '../../console/thing', 'nothing-imports-the-console'),
  probe('tools/imports-console.ts', '../console/thing', 'nothing-imports-the-console'),

  probe('tools/imports-test.ts', '../test/thing', 'tools-not-tests'),
  probe('tools/imports-episodes-inside.ts', '../src/episodes/inside', null),
];

/** Files the probes import, importing nothing themselves. */
const TARGETS = [
  'src/main.ts',
  ...LAYERS.flat()
    .filter((folder) => folder !== 'main.ts')
    .map((folder) => `src/${folder}/index.ts`),
  'src/episodes/inside.ts',
  'src/families/kit/index.ts',
  'src/families/shared/index.ts',
  'src/families/beta/index.ts',
  'tools/thing.ts',
  'client/thing.ts',
  'test/thing.ts',
  'console/thing.ts',
];

/** The other half of the probed cycle (dependency-cruiser reports a cycle once, at the file it meets first). */
const CYCLE_BACK = { file: 'src/common/cycle-b.ts', text: "import * as imported from './cycle-a';\n" };

interface Cruise {
  summary: { violations: { rule: { name: string }; from: string; to: string }[] };
}

/** dependency-cruiser's CLI with the project's configuration, as `npm run lint:architecture` runs it. */
function cruise(cwd: string): Promise<Cruise> {
  return new Promise((resolve, reject) => {
    const args = ['src', 'tools', 'client', 'test', 'console', '--config', CONFIG, '--output-type', 'json'];
    // It exits non-zero when it finds violations; its report is on stdout either way.
    execFile(DEPCRUISE, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!stdout) reject(error ?? new Error(stderr));
      else resolve(JSON.parse(stdout) as Cruise);
    });
  });
}

let scratch: string;
let probed: Cruise;
let repository: Cruise;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'architecture-rules-'));
  // The scratch layout resolves packages and TypeScript paths as the repository does.
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.test.json']) copyFileSync(join(PROJECT_ROOT, file), join(scratch, file));
  const write = (file: string, text: string): void => {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    writeFileSync(join(scratch, file), text);
  };
  for (const file of TARGETS) write(file, 'export const probe = 1;\n');
  write(CYCLE_BACK.file, CYCLE_BACK.text);
  for (const p of PROBES) write(p.file, `import ${p.typeOnly ? 'type ' : ''}* as imported from '${p.specifier}';\n`);
  [probed, repository] = await Promise.all([cruise(scratch), cruise(PROJECT_ROOT)]);
});

afterAll(() => {
  if (!scratch) return;
  rmSync(join(scratch, 'node_modules'), { force: true }); // the link only (rm never follows one), not the packages
  rmSync(scratch, { recursive: true, force: true });
});

const firedBy = (file: string): string[] => [...new Set(probed.summary.violations.filter((v) => v.from === file).map((v) => v.rule.name))].sort();

it('every rule of .dependency-cruiser.cjs has a probe that must make it fire', () => {
  const probedRules = new Set(PROBES.map((p) => p.fires));
  expect(forbidden.map((rule) => rule.name).filter((name) => !probedRules.has(name))).toEqual([]);
});

it.each(PROBES)('$file importing $specifier: $fires', ({ file, fires }) => {
  if (fires === null) expect(firedBy(file)).toEqual([]);
  else expect(firedBy(file)).toContain(fires);
});

it('the scratch layout breaks no rule beyond its probes', () => {
  const probeFiles = new Set(PROBES.filter((p) => p.fires !== null).map((p) => p.file));
  expect(probed.summary.violations.filter((v) => !probeFiles.has(v.from))).toEqual([]);
});

it('the repository keeps every rule', () => {
  expect(repository.summary.violations).toEqual([]);
});
