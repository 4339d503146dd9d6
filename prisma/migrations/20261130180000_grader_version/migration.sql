-- The grader each episode is scored with (src/engine/grader-version.ts). Every episode stored before this
-- migration was scored by version 1; new episodes record the version they start with. A column added in place
-- (SQLite's ALTER TABLE ADD COLUMN rewrites nothing), so upgrading a large database takes no time.
ALTER TABLE "episodes" ADD COLUMN "grader_version" INTEGER NOT NULL DEFAULT 1;
