/* The baseline module's public surface (the CLI runs the same loop locally or against a server). */
export { BaselineModule } from './baseline.module';
export { BaselineService } from './baseline.service';
export { BASELINE_POLICY, BASELINE_SEED, baselineRunRequest, runBaseline, type BaselineEnvironment } from './baseline-run';
export { formatBaselineTable } from './baseline-table';
export type { BaselineResponseDto } from './dto/baseline.dto';
