import { STEP_NAMES, VARIABLE_PREFIX } from '@atrium/contracts/release-env';

/** What a step's shell finds besides its own: the agent's base names and the ones it sets (release-env). */
const SET_BY_AGENT = new Set<string>(['PATH', 'HOME', 'LANG', ...STEP_NAMES]);
// the shell's own: positional and special parameters, and what it sets by itself
const SHELL_NAMES = new Set(['PWD', 'OLDPWD', 'IFS', 'PPID', 'OPTIND', 'OPTARG', 'LINENO', 'RANDOM', 'SECONDS', 'HOSTNAME']);

/** The names the agent sets, in the order the editor lists them. */
export const stepNames = STEP_NAMES;
export { VARIABLE_PREFIX };

/**
 * The variables a script reads (`$NAME`, `${NAME…}`) that no step sets: neither the agent's own names,
 * nor `ATRIUM_VAR_…` (an environment's variables and the step's parameters), nor the shell's, nor one the
 * script assigns itself (`NAME=`, `read NAME`, `for NAME in`, `export`/`local`/`readonly NAME`). Such a
 * name is empty when the step runs: `$VERSION` where `$ATRIUM_VAR_VERSION` or `$ATRIUM_VERSION` was meant.
 * Comments and single-quoted text are left out; a heuristic for a hint, not a shell parser.
 */
export function unsetVariables(script: string): string[] {
  const code = script
    .split('\n')
    .map((line) => line.replace(/'[^']*'/g, "''").replace(/(^|\s)#.*$/, '$1'))
    .join('\n');
  const assigned = new Set<string>();
  for (const match of code.matchAll(/(?:^|[\s;&|(])(?:(?:export|local|readonly|declare|typeset)\s+)?([A-Za-z_]\w*)\+?=/g)) {
    assigned.add(match[1] as string);
  }
  for (const match of code.matchAll(/\b(?:read(?:\s+-\w+)*|for|export|local|readonly|unset)\s+((?:[A-Za-z_]\w*\s*)+)/g)) {
    for (const name of (match[1] as string).split(/\s+/)) if (name) assigned.add(name);
  }
  const read = new Set<string>();
  for (const match of code.matchAll(/\$(?:\{#?([A-Za-z_]\w*)|([A-Za-z_]\w*))/g)) read.add((match[1] ?? match[2]) as string);
  return [...read].filter(
    (name) => !SET_BY_AGENT.has(name) && !SHELL_NAMES.has(name) && !name.startsWith(VARIABLE_PREFIX) && !assigned.has(name),
  );
}
