import { readFileSync } from 'node:fs';

/**
 * Secrets can be given as a variable (`ADMIN_API_KEY`) or, as Docker and Kubernetes secrets are mounted, as a file
 * named by `<NAME>_FILE` (its content, without the trailing newline). Giving both is a mistake: which one wins would
 * be a guess. Problems are returned naming the variable, never its value.
 */
export function readSecretVariables(env: Record<string, string | undefined>, names: readonly string[]): { values: Record<string, string>; problems: string[] } {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const name of names) {
    const direct = nonEmpty(env[name]);
    const file = nonEmpty(env[`${name}_FILE`]);
    if (direct !== undefined && file !== undefined) {
      problems.push(`${name} and ${name}_FILE are both set; set one of them`);
      continue;
    }
    if (direct !== undefined) values[name] = direct;
    if (file !== undefined) {
      try {
        values[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      } catch (error) {
        problems.push(`${name}_FILE=${JSON.stringify(file)}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      }
    }
  }
  return { values, problems };
}

/** Lines of a file of retired secrets (one per line; blank lines and # comments ignored). */
export function readSecretLines(file: string, name: string): { secrets: string[]; problem?: string } {
  try {
    return {
      secrets: readFileSync(file, 'utf8')
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#')),
    };
  } catch (error) {
    return { secrets: [], problem: `${name}=${JSON.stringify(file)}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
