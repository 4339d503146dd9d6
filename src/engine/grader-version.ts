/**
 * The graders an episode can be scored with. An episode keeps the version it started with for its whole life (it
 * is in its state and its row), so its record replays to the same scores whatever graders came after it:
 * - 1: reply details as phrase lists (task versions stored by release 0.1), src/engine/graders/v1;
 * - 2: reply details as typed claims, judged with polarity and one value per slot, with penalties,
 *   src/engine/graders/v2 (the claim engine is its claims/ folder);
 * - 3: version 2 with no domain word in the engine: support-work concepts from a shared vocabulary
 *   (src/engine/graders/v3/support-vocabulary.ts), a family's own words from the task, src/engine/graders/v3.
 * - 4: version 3 reading replies right on drawn instances (issue 23), src/engine/graders/v4.
 * - 5: version 4 with what the first exam set on drawn instances showed it misread (issue 23), src/engine/graders/v5.
 * - 6: version 5 with what the second exam set showed it misread (issue 23), src/engine/graders/v6.
 * - 7: version 6 with what the third exam set showed it misread (issue 23), src/engine/graders/v7.
 * - 8: version 7 with what the fourth exam set showed it misread (issue 23), src/engine/graders/v8.
 * - 9: version 8 with what the fifth exam set showed it misread (issue 23), src/engine/graders/v9.
 * - 10: version 9 with what the sixth exam set showed it misread (issue 23), src/engine/graders/v10.
 * - 11: version 10 with what the seventh exam set showed it misread (issue 23), src/engine/graders/v11.
 * - 12: version 11 with what the eighth exam set showed it misread (issue 23), src/engine/graders/v12.
 * - 13: version 12 with what the ninth exam set showed it misread (issue 23), src/engine/graders/v13.
 * - 14: version 13 with what the tenth exam set showed it misread (issue 23), src/engine/graders/v14.
 * - 15: version 14 with what the eleventh exam set showed it misread (issue 23), src/engine/graders/v15.
 * - 16: version 15 with what the twelfth exam set showed it misread (issue 23), src/engine/graders/v16.
 *
 * Each version is a folder under src/engine/graders, and src/engine/graders/index.ts is the registry: what each
 * version decides, which one new episodes get (CURRENT_GRADER_VERSION there) and which are released. A version is
 * released once it is on main (a deployed database may then hold episodes scored by it), and a released version is
 * frozen: its folder is never edited, and what it does through the code it shares with the engine (the task schema,
 * the state, policy search, decimals) must not change either. tools/versions/released-versions.spec.ts, part of
 * `npm test`, holds every released version to the hashes of tools/versions/released-versions.json (its verdicts
 * on a frozen corpus, and its sources). A change to what a released version does is a new version: a new folder,
 * a line here and in the registry, then `npm run versions:freeze -- --grader <n>` once it is released (docs/grading.md).
 */
export const GRADER_VERSIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] as const;
export type GraderVersion = (typeof GRADER_VERSIONS)[number];
