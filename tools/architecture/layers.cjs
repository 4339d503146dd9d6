/**
 * The server's layers, lowest first (ARCHITECTURE.md explains each). A folder of src/ may import its own
 * folder and folders on lower layers only. Read by .dependency-cruiser.cjs (which enforces it in CI) and by
 * tools/architecture/metrics.ts (which reports the graph's shape).
 */
const LAYERS = [
  ['engine'],
  ['families'],
  ['common'],
  ['config'],
  ['access'],
  ['database'],
  ['replicas'],
  ['tasks', 'tenants', 'metrics'],
  ['auth', 'openapi'],
  ['episodes'],
  ['audit', 'baseline', 'health', 'mcp', 'retention'],
  ['runs'],
  ['http'],
  ['openenv'],
  ['app'],
  ['main.ts'],
];

/** Modules whose public surface is their index.ts: other folders import that, never a file inside. */
const PUBLIC_SURFACES = ['episodes', 'mcp', 'baseline', 'metrics', 'replicas'];

module.exports = { LAYERS, PUBLIC_SURFACES };
