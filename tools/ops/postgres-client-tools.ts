import { spawn, type ChildProcess } from 'node:child_process';
import { OperationRefused } from './operation-refused';

/*
 * pg_dump, pg_restore and psql, run as child processes. The password never appears on a command line (any user of
 * the machine can read those in ps): the URL they are given has it removed, and libpq reads it from PGPASSWORD in
 * their environment. Their messages name the server, never the password, so they are passed on as they are.
 */

export type PostgresClientTool = 'pg_dump' | 'pg_restore' | 'psql';

/** The URL without its password, and the environment that gives it to libpq (and names the tool to the server). */
export function connectionFor(url: string, applicationName: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env: NodeJS.ProcessEnv = { ...process.env, PGAPPNAME: applicationName };
  // A PGPASSWORD of the caller's shell would otherwise be used for a URL that names none.
  delete env.PGPASSWORD;
  if (password !== '') env.PGPASSWORD = password;
  return { dbname: parsed.toString(), env };
}

/** Starts a tool; a missing binary becomes one plain refusal naming the package that has it. */
export function startTool(tool: PostgresClientTool, args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; finished: Promise<ToolResult> } {
  const child = spawn(tool, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    // The end of the output says what went wrong; a restore of a large database may warn a lot before it.
    stderr = (stderr + chunk).slice(-8_000);
  });
  const finished = new Promise<ToolResult>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? missingTool(tool) : error));
    child.once('close', (code, signal) => resolve({ code, signal, stderr: stderr.trim() }));
  });
  return { child, finished };
}

export interface ToolResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs a tool to its end; its standard output is collected (keep it small: pg_restore --list). */
export async function runTool(tool: PostgresClientTool, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ToolResult & { stdout: string }> {
  const { child, finished } = startTool(tool, args, env);
  child.stdin!.end();
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  return { ...(await finished), stdout };
}

/** The failure of a tool that ran, in one message: what it was doing, and the last lines it printed. */
export function toolFailed(tool: PostgresClientTool, doing: string, result: ToolResult): Error {
  const how = result.signal ? `was killed (${result.signal})` : `exited with code ${result.code}`;
  const said = result.stderr.split('\n').slice(-6).join('\n  ');
  return new Error(`${tool} ${how} while ${doing}${said ? `:\n  ${said}` : ''}`);
}

export function missingTool(tool: PostgresClientTool): OperationRefused {
  return new OperationRefused(
    `${tool} was not found on PATH: backup and restore on PostgreSQL run PostgreSQL's own client tools (pg_dump, pg_restore, psql). ` +
      'Install the package postgresql-client (Debian/Ubuntu: apt-get install postgresql-client; its major version at least the server\'s) and try again',
  );
}

