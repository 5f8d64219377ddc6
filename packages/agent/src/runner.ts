import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentRunCommand } from '@atrium/contracts/release';
import { stepEnvironment } from '@atrium/contracts/release-env';
import { maskPatterns } from '@atrium/contracts/release-mask';

/** The one interpreter steps run with; the step body is a file it reads, never a command line. */
export const INTERPRETER = '/bin/sh';
/** Between SIGTERM to a step's process group and SIGKILL. */
export const DEFAULT_GRACE_MS = 5000;
/** Output is sent at most this often, in chunks of at most this many bytes (the broker caps a packet at 16 KB). */
const FLUSH_MS = 300;
const CHUNK_BYTES = 8 * 1024;

export type RunEnd = { exitCode: number | null; signal: string | null; reason: 'exit' | 'canceled' | 'timeout' | 'error' };
export type RunSink = { chunk(seq: number, text: string): void; end(result: RunEnd): void };

/**
 * One step run: the body written to a file in a fresh directory and run by `/bin/sh file` with
 * `spawn` (`shell: false`), parameters and variables as `ATRIUM_VAR_{NAME}` environment variables
 * (nothing else of what the server sends names a variable), in a process group of
 * its own so that cancel and timeout reach every child. Output is masked line by line, numbered in
 * chunks and capped with a visible truncation line.
 */
export class StepRun {
  private child?: ChildProcess;
  private seq = 0;
  private pending = '';
  private partial = '';
  private bytes = 0;
  private truncated = false;
  private flushTimer?: NodeJS.Timeout;
  private killTimer?: NodeJS.Timeout;
  private timeoutTimer?: NodeJS.Timeout;
  private reason: RunEnd['reason'] = 'exit';
  private readonly patterns: string[];
  finished = false;

  constructor(
    readonly command: AgentRunCommand,
    private readonly workDir: string,
    private readonly sink: RunSink,
    private readonly graceMs = DEFAULT_GRACE_MS,
  ) {
    this.patterns = maskPatterns(command.secrets);
  }

  get id() {
    return this.command.stepRunId;
  }

  async start(): Promise<void> {
    const { command } = this;
    if (createHash('sha256').update(command.body).digest('hex') !== command.sha256) {
      this.emit('[agent] the step body does not match its sha256: not run\n');
      return this.finish({ exitCode: null, signal: null, reason: 'error' });
    }
    const dir = path.join(this.workDir, 'runs', String(command.stepRunId));
    // the agent does not trust the server either: it names every variable itself
    const environment = stepEnvironment({
      variables: command.variables,
      taskId: command.taskId,
      version: command.version,
      stepIndex: command.stepIndex,
      runDir: dir,
      base: {
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        HOME: process.env.HOME ?? dir,
        LANG: process.env.LANG ?? 'C.UTF-8',
      },
    });
    if ('error' in environment) {
      this.emit(`[agent] ${environment.error}: not run\n`);
      return this.finish({ exitCode: null, signal: null, reason: 'error' });
    }
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const script = path.join(dir, 'step.sh');
    await writeFile(script, command.body, { mode: 0o700 });
    await chmod(script, 0o700);
    const child = spawn(INTERPRETER, [script], {
      cwd: dir,
      env: environment.env,
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.setEncoding('utf8').on('data', (text: string) => this.output(text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => this.output(text));
    child.on('error', (error) => {
      this.emit(`[agent] could not start the step: ${error.message}\n`);
      this.reason = 'error';
    });
    child.on('close', (code, signal) => {
      // whatever the shell left behind in its group goes with it
      this.killGroup('SIGKILL');
      this.finish({ exitCode: code, signal: signal ?? null, reason: this.reason });
    });
    this.timeoutTimer = setTimeout(() => this.stop('timeout'), command.timeoutSec * 1000);
    this.flushTimer = setInterval(() => this.flush(), FLUSH_MS);
  }

  /** Cancel or timeout: SIGTERM to the whole group, SIGKILL after the grace period. */
  stop(reason: 'canceled' | 'timeout') {
    if (this.finished || !this.child) return;
    if (this.reason === 'exit') this.reason = reason;
    this.emit(
      reason === 'timeout' ? `\n[agent] step timed out after ${this.command.timeoutSec} s: stopping\n` : '\n[agent] canceled: stopping\n',
    );
    this.killGroup('SIGTERM');
    clearTimeout(this.killTimer);
    this.killTimer = setTimeout(() => this.killGroup('SIGKILL'), this.graceMs);
  }

  private killGroup(signal: NodeJS.Signals) {
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is gone already
    }
  }

  private output(text: string) {
    // masked per line: a secret split across two reads is still found whole
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.emit(`${this.mask(line)}\n`);
    if (this.partial.length > CHUNK_BYTES) {
      this.emit(this.mask(this.partial));
      this.partial = '';
    }
  }

  private mask(text: string) {
    let masked = text;
    for (const pattern of this.patterns) masked = masked.split(pattern).join('******');
    return masked;
  }

  private emit(text: string) {
    if (this.truncated) return;
    const size = Buffer.byteLength(text);
    if (this.bytes + size > this.command.logCapBytes) {
      this.truncated = true;
      this.pending += `\n[log truncated: over ${this.command.logCapBytes} bytes]\n`;
      return;
    }
    this.bytes += size;
    this.pending += text;
    if (Buffer.byteLength(this.pending) >= CHUNK_BYTES) this.flush();
  }

  private flush() {
    while (this.pending) {
      let take = this.pending.slice(0, CHUNK_BYTES);
      while (Buffer.byteLength(take) > CHUNK_BYTES) take = take.slice(0, Math.floor(take.length / 2));
      this.pending = this.pending.slice(take.length);
      this.sink.chunk(this.seq++, take);
    }
  }

  private finish(result: RunEnd) {
    if (this.finished) return;
    this.finished = true;
    if (this.partial) this.emit(this.mask(this.partial));
    this.partial = '';
    this.flush();
    clearInterval(this.flushTimer);
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.killTimer);
    this.sink.end(result);
  }
}
