/**
 * The import rules of ARCHITECTURE.md, checked in CI (`npm run lint:architecture`).
 *
 * The server's folders sit on layers; a file may import its own folder and folders on lower layers only. Folders
 * on the same layer do not import each other. The engine imports nothing of the server; the client imports
 * nothing of anyone; tools may import the server and the client, and nothing imports tools or tests.
 */
const { LAYERS, PUBLIC_SURFACES } = require('./tools/architecture/layers.cjs');

/** Unit specs sit beside the code they test but are tests: the server's rules do not bind them. */
const SPECS = '\\.spec\\.ts$';

const rank = new Map(LAYERS.flatMap((folders, i) => folders.map((folder) => [folder, i])));
const folderPath = (folder) => (folder.endsWith('.ts') ? `^src/${folder.replace('.', '\\.')}$` : `^src/${folder}/`);

/** For each folder: the folders it may not import (higher layers, and other folders of its own layer). */
const layerRules = [...rank.keys()].flatMap((folder) => {
  const forbidden = [...rank.keys()].filter((other) => other !== folder && rank.get(other) >= rank.get(folder));
  if (forbidden.length === 0) return [];
  return {
    name: `layer-${folder}`,
    severity: 'error',
    comment: `src/${folder} (layer ${rank.get(folder)}) may import only lower layers: ${forbidden.join(', ')} are not below it (ARCHITECTURE.md)`,
    from: { path: folderPath(folder), pathNot: SPECS },
    to: { path: forbidden.map(folderPath) },
  };
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'an import cycle makes two files one unit that neither can be read, tested or moved without the other',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment: 'the engine is plain TypeScript: no Nest, no Prisma, no Node I/O; only these libraries',
      from: { path: '^src/engine/', pathNot: SPECS },
      to: { dependencyTypes: ['npm', 'npm-dev', 'core'], pathNot: ['node_modules/(zod|minisearch|pure-rand)/'] },
    },
    {
      name: 'public-surface',
      severity: 'error',
      comment: 'other folders import these modules through their index.ts (their public surface) only',
      from: { path: '^src/([^/]+)/', pathNot: [`^src/(${PUBLIC_SURFACES.join('|')})/`] },
      to: { path: `^src/(${PUBLIC_SURFACES.join('|')})/`, pathNot: [`^src/(${PUBLIC_SURFACES.join('|')})/index\\.ts$`] },
    },
    {
      name: 'public-surface-between-surfaces',
      severity: 'error',
      comment: 'a module with a public surface imports another one through its index.ts too',
      from: { path: `^src/(${PUBLIC_SURFACES.join('|')})/` },
      to: {
        path: `^src/(${PUBLIC_SURFACES.join('|')})/`,
        pathNot: [`^src/(${PUBLIC_SURFACES.join('|')})/index\\.ts$`, '^src/$1/'],
      },
    },
    {
      name: 'server-alone',
      severity: 'error',
      comment: 'the server never imports tools, the generated client or tests (they sit beside it, above it)',
      from: { path: '^src/', pathNot: SPECS },
      to: { path: '^(tools|client|test)/' },
    },
    {
      name: 'client-alone',
      severity: 'error',
      comment: 'the generated client stands on its own (openapi.json is its only source)',
      from: { path: '^client/' },
      to: { path: '^(src|tools|test)/' },
    },
    {
      name: 'tools-not-tests',
      severity: 'error',
      comment: 'tools ship nothing from the test suite',
      from: { path: '^tools/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/generated/', '\\.d\\.ts$'] },
    includeOnly: '^(src|tools|client|test)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
