/* eslint-disable no-console */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { families } from '../../src/families';
import { GRADERS, isGraderVersion } from '../../src/engine/graders';
import { readCommandLine } from '../cli/command-line';
import { FREEZE_COMMAND } from './freeze.command';
import { buildCorpus } from './grader-corpus';
import { freezeGenerator, freezeGrader, manifestText, readManifest, VERSIONS_DIR, MANIFEST_FILE, corpusText } from './version-hashes';

/** `npm run versions:freeze`: see freeze.command.ts, or `npm run versions:freeze -- --help`. */
function main(): void {
  const { values } = readCommandLine(FREEZE_COMMAND);
  const manifest = readManifest();
  if (values.grader !== undefined) {
    const version = values.grader;
    if (!isGraderVersion(version)) fail(`grader version ${version} is not in the registry (src/engine/graders/index.ts)`);
    if (manifest.graders[version]) fail(`grader version ${version} is frozen already: a released version never changes; make the change a new version`);
    const corpus = buildCorpus(version, (task) => GRADERS[version].module.grades(task));
    const name = `corpus/grader-v${version}.json`;
    writeFileSync(join(VERSIONS_DIR, name), corpusText(corpus));
    manifest.graders[version] = freezeGrader(version, corpus, name);
    console.log(`grader version ${version}: ${corpus.cases.length} cases, written to tools/versions/${name}`);
    if (!GRADERS[version].released) console.log(`mark it released: true in src/engine/graders/index.ts in the same change`);
  }
  if (values.generators) {
    for (const family of families()) {
      if (manifest.generators[family.id]?.[family.generatorVersion]) continue;
      (manifest.generators[family.id] ??= {})[family.generatorVersion] = freezeGenerator(family.id, family.generatorVersion);
      console.log(`generator ${family.id} g${family.generatorVersion} frozen`);
    }
  }
  if (values.grader === undefined && !values.generators) fail('nothing to freeze: pass --grader <n> or --generators (see --help)');
  writeFileSync(MANIFEST_FILE, manifestText(manifest));
}

function fail(message: string): never {
  console.error(`versions:freeze: ${message}`);
  process.exit(1);
}

main();
