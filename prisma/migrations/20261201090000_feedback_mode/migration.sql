-- What the agent is told while an episode runs (POST /reset's `feedback`): "dense", a reward and the score after
-- every step (for training), or "final", nothing until the episode ends (for evaluation). Every episode stored
-- before this migration was dense. Added in place (ALTER TABLE ADD COLUMN rewrites nothing).
ALTER TABLE "episodes" ADD COLUMN "feedback" TEXT NOT NULL DEFAULT 'dense';
