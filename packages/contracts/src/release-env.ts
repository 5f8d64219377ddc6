/**
 * The environment a release step runs with, shared by the server (what it accepts) and the agent
 * (what it builds). No name a user chooses reaches the step as itself: every environment variable
 * and step parameter arrives as `ATRIUM_VAR_{NAME}`, so none can be one that a shell, the dynamic
 * loader or an interpreter reads at start-up (BASH_ENV, ENV, PS4, LD_PRELOAD, PATH, IFS,
 * NODE_OPTIONS, PYTHONSTARTUP, PERL5OPT…). Kept free of zod: the agent bundles it.
 */

/** The prefix of every user-named variable in a step's environment. */
export const VARIABLE_PREFIX = 'ATRIUM_VAR_';

/** A variable or parameter name as a user writes it: a letter or `_`, then letters, digits and `_` (64 at most). */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The names the agent itself sets, besides PATH, HOME and LANG taken from its own environment. */
export const STEP_NAMES = ['ATRIUM_TASK_ID', 'ATRIUM_VERSION', 'ATRIUM_STEP', 'ATRIUM_RUN_DIR'] as const;

/** Largest value of one variable (the contract's limit for environment variables). */
export const MAX_VARIABLE_VALUE = 8192;

export type StepEnvironmentInput = {
  /** user-named variables and parameters, by their names without the prefix */
  variables: unknown;
  taskId: number;
  version: string;
  /** 0-based */
  stepIndex: number;
  runDir: string;
  /** the agent's own PATH, HOME and LANG */
  base: { PATH: string; HOME: string; LANG: string };
};

/**
 * The whole environment of a step, or the reason it must not run. Only the base names, the step's own
 * names and `ATRIUM_VAR_{NAME}` are set; a name that is not a plain identifier, a value that is not a
 * string, holds a NUL character or is too long refuses the step (whoever sent it).
 */
export function stepEnvironment(input: StepEnvironmentInput): { env: Record<string, string> } | { error: string } {
  const env: Record<string, string> = { PATH: input.base.PATH, HOME: input.base.HOME, LANG: input.base.LANG };
  const variables = input.variables;
  if (variables !== undefined && (typeof variables !== 'object' || variables === null || Array.isArray(variables)))
    return { error: 'the variables are not a map of names to values' };
  for (const [name, value] of Object.entries((variables ?? {}) as Record<string, unknown>)) {
    if (!VARIABLE_NAME.test(name)) return { error: `variable name ${JSON.stringify(name.slice(0, 80))} is not a plain identifier` };
    if (typeof value !== 'string' || value.includes('\0') || value.length > MAX_VARIABLE_VALUE)
      return { error: `variable ${name} has a value that cannot be passed` };
    env[`${VARIABLE_PREFIX}${name}`] = value;
  }
  if (typeof input.version !== 'string' || input.version.includes('\0')) return { error: 'the version cannot be passed' };
  env.ATRIUM_TASK_ID = String(input.taskId);
  env.ATRIUM_VERSION = input.version;
  env.ATRIUM_STEP = String(input.stepIndex + 1);
  env.ATRIUM_RUN_DIR = input.runDir;
  return { env };
}
