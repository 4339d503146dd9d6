/**
 * The import rules of ARCHITECTURE.md, checked in CI (`npm run lint:architecture`). Each rule is proven to fire
 * on a deliberate violation by tools/architecture/architecture-rules.proof.spec.ts.
 *
 * The server's folders sit on layers; a file may import its own folder and folders on lower layers only. Folders
 * on the same layer do not import each other. The engine imports nothing but itself and a few pure libraries;
 * a task family's folder imports only the family kit and the shared pools; the client imports nothing of anyone;
 * tools may import the server and the client, and nothing imports tools or tests.
 *
 * Every import stays in the graph, npm packages and Node's core modules included (no `includeOnly`): a rule can
 * only forbid what the graph still holds. The purity rules therefore say what may be imported (`pathNot`) rather
 * than list what may not: whatever an import resolves to — a package, `node:fs`, another folder, an unresolvable
 * name — it is forbidden unless allowed.
 */
const { LAYERS, PUBLIC_SURFACES } = require('./tools/architecture/layers.cjs');

/** Unit specs sit beside the code they test but are tests: the server's rules do not bind them. */
const SPECS = '\\.spec\\.ts$';

/**
 * The only packages the engine (and the family kit and shared pools) may import; each is plain computation, no
 * I/O, no clock, no global state:
 *  - zod: the task and claim schemas (engine/task.schema.ts, engine/claims/claim.schema.ts);
 *  - minisearch: the policy-article index of policy search (engine/policy-search.ts);
 *  - stopword: the English stop-word list policy search drops from queries (engine/policy-search.ts);
 *  - pure-rand: the seeded draws (engine/seeded-order.ts, engine/families/random.ts).
 */
const PURE_PACKAGES = ['zod', 'minisearch', 'stopword', 'pure-rand'];
/** A pure package's code or its type declarations (@types/…). */
const purePackages = `(^|/)node_modules/(@types/)?(${PURE_PACKAGES.join('|')})/`;

/** A task family's own folder under src/families/ (the capture is the family's id); kit/ and shared/ are not families. */
const FAMILY_FOLDER = '^src/families/(?!(?:kit|shared)/)([^/]+)/';

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
      comment: `the engine is plain TypeScript: it imports its own folder and ${PURE_PACKAGES.join(', ')} only (no Nest, no Prisma, no Node core module, no other folder)`,
      from: { path: '^src/engine/', pathNot: SPECS },
      to: { pathNot: ['^src/engine/', purePackages] },
    },
    {
      name: 'family-kit-and-shared-only',
      severity: 'error',
      comment: 'a task family imports its own folder, src/families/kit and src/families/shared only: no other family, no engine internals, no server layer, no package, no Node core module',
      from: { path: FAMILY_FOLDER, pathNot: SPECS },
      to: { pathNot: ['^src/families/$1/', '^src/families/(kit|shared)/'] },
    },
    {
      name: 'families-are-pure',
      severity: 'error',
      comment: `src/families (the kit and the shared pools too) is engine code: it imports src/families, src/engine and ${PURE_PACKAGES.join(', ')} only`,
      from: { path: '^src/families/', pathNot: SPECS },
      to: { pathNot: ['^src/(families|engine)/', purePackages] },
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
      name: 'console-through-the-client',
      severity: 'error',
      comment: 'the console is a client like any other: it reaches the server only through the generated client, never its code (docs/console.md)',
      from: { path: '^console/' },
      to: { path: '^(src|tools|test)/' },
    },
    {
      name: 'nothing-imports-the-console',
      severity: 'error',
      comment: 'the console is built and served as files; no code imports it',
      from: { path: '^(src|tools|client|test)/' },
      to: { path: '^console/' },
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
    // Packages are leaves of the graph: present, so the rules see them, but not cruised.
    doNotFollow: { path: '(^|/)node_modules/' },
    // The repository's own declaration files (client/schema.d.ts) only: a package's .d.ts is what a type-only
    // import of it resolves to, and must stay in the graph for the rules to see it.
    exclude: { path: ['^src/generated/', '^(src|tools|client|test|console)/.*\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
