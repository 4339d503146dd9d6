import { readCommandLine, refuseCommandLine } from '../cli/command-line';
import { AGENT_COMMAND } from './agent.command';
import { RunSetupError, runAgent, type AgentRunOutcome } from './agent-runner';
import { resolveSettings, resumeCommand } from './agent-settings';
import { UnreachableError } from './http-retry';
import { InterruptGate } from './interrupt';
import { formatRunTable } from './report-table';

/** `npm run agent`: see agent.command.ts, or `npm run agent -- --help`. */
async function main(): Promise<number> {
  const { values } = readCommandLine(AGENT_COMMAND);
  const resolved = resolveSettings(values, process.env);
  if ('error' in resolved) refuseCommandLine(AGENT_COMMAND, resolved.error);
  const { settings } = resolved;

  // Ctrl-C: the first stops taking cells and winds down (the in-flight episodes are reported as interrupted); a
  // second one exits at once.
  const gate = new InterruptGate({
    onFirst: () => process.stderr.write('\ninterrupted: reporting the episodes in flight (Ctrl-C again to exit at once)\n'),
    onSecond: () => process.exit(130),
  });
  process.on('SIGINT', () => gate.signalled());

  let runId: string | null = null;
  const outcome = await runAgent({
    url: settings.url,
    agentKey: settings.agentKey,
    readerKey: settings.readerKey,
    model: {
      baseURL: settings.modelUrl,
      name: settings.modelName,
      apiKey: settings.modelKey,
      maxRetries: settings.modelRetries,
      timeoutMs: settings.modelTimeoutMs,
    },
    run: settings.run,
    concurrency: settings.concurrency,
    showScores: settings.showScores,
    signal: gate.signal,
    log: (line) => process.stdout.write(`${line}\n`),
    stderr: process.stderr,
    onRun: (run) => {
      runId = run.run_id;
      const verb = 'resume' in settings.run ? 'resuming' : 'created';
      process.stderr.write(
        `${verb} run ${run.run_id} (${run.name}): ${run.progress.finished}/${run.progress.cells} cells finished; model ${run.model ?? settings.modelName}\n` +
          `resume it with: ${resumeCommand(settings, run.run_id)}\n`,
      );
    },
  });
  process.stdout.write(`\n${formatRunTable(outcome.run)}\n`);
  return ending(outcome, resumeCommand(settings, runId ?? outcome.run.run_id));
}

/** What the end says on stderr, and the exit code: 0 nothing left to fill, 130 interrupted, 3 an endpoint failing, 1 otherwise. */
function ending(outcome: AgentRunOutcome, resume: string): number {
  if (outcome.ending === 'interrupted') {
    process.stderr.write(`interrupted: ${outcome.filled} cells filled here; resume with:\n  ${resume}\n`);
    return 130;
  }
  if (outcome.ending === 'stopped') {
    process.stderr.write(`stopped: ${outcome.stopped?.reason}\nresume with:\n  ${resume}\n`);
    return outcome.stopped?.endpoint ? 3 : 1;
  }
  if (outcome.run.status !== 'complete') {
    // Every cell left is being filled elsewhere (another runner, or an episode whose answer was lost, which the
    // server's idle sweep abandons in time): run the same command again later.
    process.stderr.write(`run ${outcome.run.run_id} has no cell to hand out now but is not complete (${outcome.run.progress.active} active); later:\n  ${resume}\n`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof UnreachableError || error instanceof RunSetupError;
    console.error(known ? (error as Error).message : `agent run failed: ${(error as Error).message}`);
    process.exit(error instanceof UnreachableError ? 3 : 1);
  },
);
