import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The options of a command-line tool (printer simulator, release agent): `--help` (or `-h`) prints the
 * usage and ends the process well; an unknown or malformed option names itself and prints the usage on
 * stderr (exit 2) instead of parseArgs's stack trace.
 */
export function commandLine<const T extends Options>(options: T, usage: string) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ args, options }).values;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}

/** Ends the process with the usage on stderr (a required option is missing). */
export function usageError(usage: string): never {
  process.stderr.write(usage);
  process.exit(2);
}
