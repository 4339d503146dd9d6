import { families, familyVersion } from '../../src/families';
import { taskCatalogInMemory } from './task-catalog';

/*
 * The catalogue against an in-memory version store: generator versions are stored as task versions (so episodes
 * can reference them) but never parsed as tasks, and drawn instances are kept in a bounded cache, so memory stays
 * flat however many episodes are stored.
 */

it('stores one task version per generator, naming it, and loads no instance at start', async () => {
  const { catalog, stored } = await taskCatalogInMemory();
  const generators = [...stored.values()].filter((row) => row.version === 'g1');
  expect(generators.map((row) => [row.taskId, JSON.parse(row.contentJson)])).toEqual(
    families()
      .filter((f) => f.generatorVersion === 1)
      .map((f) => [f.id, { generator: { family: f.id, version: 1 } }]),
  );
  expect((catalog as unknown as { instances: Map<string, unknown> }).instances.size).toBe(0);
});

it('draws an instance from its generator and seed, the same as the family does, in a cache that stays bounded', async () => {
  const { catalog } = await taskCatalogInMemory();
  const family = familyVersion('logistics_missing_order_vip', 1)!;
  expect(catalog.instance('logistics_missing_order_vip', 'g1', 42, null)).toEqual(family.generate(42));
  expect(catalog.instance('logistics_missing_order_vip', 'g1', 42, null)).toBe(catalog.instance('logistics_missing_order_vip', 'g1', 42, null));
  for (let seed = 0; seed < 1500; seed++) catalog.instance('billing_duplicate_charge', 'g1', seed, null);
  expect((catalog as unknown as { instances: Map<string, unknown> }).instances.size).toBeLessThanOrEqual(1024);
  expect(() => catalog.instance('billing_duplicate_charge', 'g9', 1, null)).toThrow(/generator g9 of task billing_duplicate_charge is not part of this release/);
});
