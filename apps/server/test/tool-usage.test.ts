import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const tools = {
  'printer:sim': fileURLToPath(new URL('../tools/printer-sim.ts', import.meta.url)),
  agent: fileURLToPath(new URL('../../../packages/agent/src/cli.ts', import.meta.url)),
};

describe.each(Object.entries(tools))('npm run %s', (_name, entry) => {
  const start = (...args: string[]) => run(process.execPath, ['--import', 'tsx', entry, ...args], { timeout: 60_000 });

  it('prints its usage for --help, on stdout, and ends well', async () => {
    const { stdout, stderr } = await start('--help');
    expect(stdout).toMatch(/^usage: /);
    expect(stdout).toContain('--help');
    expect(stderr).toBe('');
  });

  it('names an unknown option and prints its usage instead of a stack trace', async () => {
    const failure = await start('--no-such-option').then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain("'--no-such-option'");
    expect(failure?.stderr).toContain('usage: ');
    expect(failure?.stderr).not.toMatch(/\n\s+at /);
  });
});
