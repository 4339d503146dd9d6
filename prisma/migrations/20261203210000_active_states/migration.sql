-- Running episodes' states in a table of their own (active_states), deleted when the episode ends, instead of in
-- the episode's row: a row that carried a 7 KB snapshot and shrank to 0.3 KB when its episode ended left most of
-- its page empty for good (new episodes are appended in serial order, so nothing refilled it); pages freed here are
-- reused by the next episodes. The states of the episodes running now move across; ended episodes of earlier
-- releases that kept their snapshot keep it where it is.

-- CreateTable
CREATE TABLE "active_states" (
    "episode_serial" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "state_json" TEXT NOT NULL,
    CONSTRAINT "active_states_episode_serial_fkey" FOREIGN KEY ("episode_serial") REFERENCES "episodes" ("serial") ON DELETE RESTRICT ON UPDATE CASCADE
);


INSERT INTO "active_states" ("episode_serial", "state_json")
SELECT "serial", "state_json" FROM "episodes" WHERE "status" = 'active' AND "state_json" <> '';
UPDATE "episodes" SET "state_json" = '' WHERE "status" = 'active' AND "state_json" <> '';
