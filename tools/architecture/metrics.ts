import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root';
import { readCommandLine } from '../cli/command-line';
import { METRICS_COMMAND } from './metrics.command';

/*
 * `npm run architecture:metrics [-- <repository folder>]` (arguments: metrics.command.ts): the shape of the
 * server's import graph, as the renovation reports it (ARCHITECTURE.md):
 *  - floors: the longest import chain among the server's files (src/, specs and generated code left out), each
 *    import cycle counted as one file;
 *  - back-edges: imports from a folder to a folder that is not on a lower layer of tools/architecture/layers.cjs
 *    (entry points and tools that sat inside src/ count as the top layer, where they belong);
 *  - cycles: groups of files that import each other;
 *  - the largest hand-written file.
 * Works on an older checkout too (pass its folder), which is how the "before" figures were taken.
 */

// The layer table is shared with .dependency-cruiser.cjs, as plain CommonJS next to this file's source.
const { LAYERS } = require(join(PROJECT_ROOT, 'tools', 'architecture', 'layers.cjs')) as { LAYERS: string[][] };

/** Folders of the layout before the renovation, placed on today's layers. */
const LEGACY_FOLDERS: Record<string, string> = {
  prisma: 'database',
  logging: 'http',
  throttling: 'http',
  'app.module.ts': 'app',
  'create-app.ts': 'app',
  'configure-app.ts': 'app',
};
/** What never belonged in the server: it counts as sitting above everything. */
const TOOL_FOLDERS = new Set(['agent', 'bench', 'client']);
const TOOL_FILES = /(\.cli\.ts|remote-baseline\.ts)$/;

interface Module {
  source: string;
  dependencies: { resolved: string }[];
}

function main(): void {
  const [root] = readCommandLine(METRICS_COMMAND).positionals;
  const output = execFileSync(
    join(PROJECT_ROOT, 'node_modules', '.bin', 'depcruise'),
    ['src', '--no-config', '--ts-pre-compilation-deps', '--output-type', 'json', '--exclude', '^src/generated/|\\.spec\\.ts$|\\.d\\.ts$'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const modules = (JSON.parse(output) as { modules: Module[] }).modules.filter((m) => m.source.startsWith('src/'));
  const files = new Set(modules.map((m) => m.source));
  const edges = new Map(modules.map((m) => [m.source, m.dependencies.map((d) => d.resolved).filter((r) => files.has(r))]));

  const rank = new Map(LAYERS.flatMap((folders, i) => folders.map((folder) => [folder, i] as const)));
  const top = LAYERS.length;
  const layerOf = (file: string): [string, number] => {
    const first = file.split('/')[1];
    if (TOOL_FOLDERS.has(first) || TOOL_FILES.test(file)) return ['tools', top];
    const folder = LEGACY_FOLDERS[first] ?? first;
    return [folder, rank.get(folder) ?? top];
  };
  const backEdges: string[] = [];
  for (const [from, targets] of edges) {
    const [fromFolder, fromRank] = layerOf(from);
    for (const to of targets) {
      const [toFolder, toRank] = layerOf(to);
      if (fromFolder !== toFolder && toRank >= fromRank) backEdges.push(`${from} -> ${to}`);
    }
  }

  const components = stronglyConnected(edges);
  const cycles = components.filter((c) => c.length > 1);
  const fileChain = longestChain(edges, components);
  // The same over folders (src/<folder>, or the file for files at the top of src/): how many floors the house has.
  const folderEdges = new Map<string, string[]>();
  for (const [from, targets] of edges) {
    const a = folderOf(from);
    const list = folderEdges.get(a) ?? [];
    for (const to of targets) if (folderOf(to) !== a) list.push(folderOf(to));
    folderEdges.set(a, list);
  }
  const folderComponents = stronglyConnected(folderEdges);
  const folderChain = longestChain(folderEdges, folderComponents);

  const handWritten = ['src', 'tools', 'client']
    .flatMap((dir) => listTs(root, dir))
    .filter((f) => !f.includes('/generated/') && !f.endsWith('.d.ts'));
  const sizes = handWritten.map((f) => [f, readFileSync(join(root, f), 'utf8').split('\n').length] as const).sort((a, b) => b[1] - a[1]);

  console.log(`server files: ${files.size}, folders: ${folderEdges.size}`);
  console.log(`floors (longest chain of folders importing folders): ${folderChain.length}: ${folderChain.join(' -> ')}`);
  console.log(`folder import cycles: ${folderComponents.filter((c) => c.length > 1).map((c) => c.join(' <-> ')).join('; ') || 'none'}`);
  console.log(`longest chain of files: ${fileChain.length}`);
  console.log(`back-edges (imports not to a lower layer): ${backEdges.length}`);
  for (const edge of backEdges) console.log(`  ${edge}`);
  console.log(`import cycles: ${cycles.length}`);
  console.log(`largest hand-written file: ${sizes[0][0]} (${sizes[0][1]} lines)`);
}

function listTs(root: string, dir: string): string[] {
  try {
    return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', dir], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
  } catch {
    return [];
  }
}

/** Tarjan's algorithm: the import cycles, and every other file as a group of one. */
function stronglyConnected(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      out.push(component);
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return out;
}

/** The longest import chain, over the graph with each cycle collapsed into one node (named by a member). */
function longestChain(edges: Map<string, string[]>, components: string[][]): string[] {
  const componentOf = new Map(components.flatMap((c, i) => c.map((node) => [node, i] as const)));
  const chains = new Map<number, string[]>();
  const chainFrom = (c: number): string[] => {
    const known = chains.get(c);
    if (known) return known;
    let best: string[] = [];
    for (const node of components[c]) {
      for (const target of edges.get(node) ?? []) {
        const t = componentOf.get(target);
        if (t === undefined || t === c) continue;
        const candidate = chainFrom(t);
        if (candidate.length > best.length) best = candidate;
      }
    }
    const chain = [components[c].length > 1 ? `(${components[c].join(', ')})` : components[c][0], ...best];
    chains.set(c, chain);
    return chain;
  };
  return components.map((_, i) => chainFrom(i)).reduce((a, b) => (b.length > a.length ? b : a));
}

/** src/<folder> for files in a folder, the file itself for files at the top of src/. */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? parts[1] : parts[1];
}

main();
