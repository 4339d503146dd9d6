import type { CommandDeclaration } from './command-declaration';

/*
 * For the specs that hold each tool's declaration to its code (`*.command.spec.ts`): what a tool's source reads,
 * and what its documented examples pass. Plain functions over text, so the specs need no build.
 */

/** The flags a tool's source reads from its parsed values: `values.name` and `values['name']`. */
export function flagsReadIn(source: string): string[] {
  const names = [...source.matchAll(/\bvalues(?:\.([A-Za-z_$][\w$]*)|\[\s*'([^']+)'\s*\])/g)].map((match) => match[1] ?? match[2]);
  return [...new Set(names)].sort();
}

/** The arguments an example of the help passes to the tool: what follows the invocation, environment left out. */
export function exampleArguments(declaration: CommandDeclaration, example: string): string[] {
  const invocation = declaration.invocation.replace(/ --$/, '');
  const at = example.indexOf(invocation);
  if (at === -1) throw new Error(`the example "${example}" does not run ${invocation}`);
  return example
    .slice(at + invocation.length)
    .split(/\s+/)
    .filter((word) => word && word !== '--');
}
