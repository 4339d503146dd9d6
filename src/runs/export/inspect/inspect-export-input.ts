/**
 * What the Inspect export needs of a run: the run itself, its results, and its samples one at a time (the lead
 * fills it from the database). A sample is one cell's episode: (task_id, seed, trial).
 */
export interface InspectExportInput {
  run: {
    run_id: string;
    name: string;
    agent: string;
    model: string | null;
    split: string;
    feedback: string;
    families: string[];
    seeds: number[];
    trials: number;
    config_hash: string;
    grader_version: number;
    generator_versions: Record<string, string>;
    created_at: string;
    completed_at: string | null;
    status: 'open' | 'complete';
    metadata: Record<string, unknown>;
    success_threshold: number;
    server_version: string;
  };
  results: {
    mean_score: number | null;
    success_rate: number | null;
    pass_hat_k: { k: number; estimate: number | null }[];
    cells_total: number;
    cells_finished: number;
  };
  /** Read one at a time and never held together: an archive of any size streams in bounded memory. */
  samples: AsyncIterable<InspectSampleInput>;
}

export type InspectTermination = 'resolved' | 'out_of_steps' | 'gave_up' | 'abandoned' | 'infrastructure_error';

export interface InspectSampleInput {
  task_id: string;
  seed: number;
  trial: number;
  episode_id: string;
  /** What the agent was asked (text of the first observation). */
  instruction: string;
  termination: InspectTermination | null;
  score: number | null;
  success: boolean | null;
  /** Earned points per grading component. */
  components: Record<string, number>;
  penalties: { code: string; points: number }[];
  steps: {
    index: number;
    action: Record<string, unknown>;
    reward: number | null;
    outcome: string;
    error: string | null;
    at: string;
  }[];
  started_at: string;
  finished_at: string | null;
  wall_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
}
