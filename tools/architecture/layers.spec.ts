import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LAYERS } = require('./layers.cjs') as { LAYERS: string[][] };

it('ARCHITECTURE.md shows exactly the layers dependency-cruiser enforces', () => {
  const doc = readFileSync(join(PROJECT_ROOT, 'ARCHITECTURE.md'), 'utf8');
  const rows = [...doc.matchAll(/^\| (\d+) \| ([^|]+) \|$/gm)].map((m) => [Number(m[1]), m[2].split(',').map((f) => f.trim())] as const);
  expect(rows.map(([rank]) => rank)).toEqual(LAYERS.map((_, i) => i));
  expect(rows.map(([, folders]) => folders)).toEqual(LAYERS);
});

it('every folder of src/ is on a layer', () => {
  const listed = new Set(LAYERS.flat());
  const folders = require('node:fs')
    .readdirSync(join(PROJECT_ROOT, 'src'), { withFileTypes: true })
    .filter((entry: { isDirectory(): boolean; name: string }) => entry.isDirectory() && entry.name !== 'generated')
    .map((entry: { name: string }) => entry.name);
  expect(folders.filter((folder: string) => !listed.has(folder))).toEqual([]);
});
