import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AgentCommand, AgentHeartbeat, AgentLogChunk, AgentStatus } from '@atrium/contracts/release';
import mqtt, { type MqttClient } from 'mqtt';
import { StepRun } from './runner';

export const AGENT_VERSION = '0.1.0';

/** What enrolment gave the agent, kept in `{work}/agent.json` (mode 0600). */
export type Credentials = { id: number; tenantId: number; username: string; secret: string; broker: string };

export type AgentOptions = {
  /** The Atrium server, e.g. https://atrium.example.com */
  server: string;
  /** Where the credentials and the step runs' directories live. */
  work: string;
  /** A one-time enrolment token; needed only the first time. */
  enrol?: string;
  labels?: string[];
  /** The broker URL when it is not the one the server names (ws://host:port/mqtt). */
  broker?: string;
  hostname?: string;
  graceMs?: number;
  /** Between connection attempts, also while the server has not approved the agent yet (default 5 s). */
  reconnectMs?: number;
  log?: (line: string) => void;
};

const CREDENTIALS_FILE = 'agent.json';

/** Enrols once with the token and keeps the id and secret it gets back in the work directory. */
export async function enrol(options: AgentOptions): Promise<Credentials> {
  const file = path.join(options.work, CREDENTIALS_FILE);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  } catch {
    // not enrolled yet
  }
  if (!options.enrol) throw new Error(`not enrolled: pass --enrol TOKEN (no ${file})`);
  const response = await fetch(new URL('/api/release/client/enrol', options.server), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token: options.enrol,
      hostname: options.hostname ?? os.hostname(),
      os: `${os.platform()} ${os.release()}`.slice(0, 64),
      agentVersion: AGENT_VERSION,
      labels: options.labels ?? [],
    }),
  });
  const answer = (await response.json()) as {
    code: number;
    message: string;
    data: { id: number; tenantId: number; username: string; secret: string; broker: string | null; brokerPort: number | null };
  };
  if (answer.code !== 200) throw new Error(`enrolment refused: ${answer.message}`);
  const { id, tenantId, username, secret, broker, brokerPort } = answer.data;
  const server = new URL(options.server);
  const brokerUrl =
    options.broker ?? broker ?? `${server.protocol === 'https:' ? 'wss' : 'ws'}://${server.hostname}:${brokerPort ?? 8083}/mqtt`;
  const credentials: Credentials = { id, tenantId, username, secret, broker: brokerUrl };
  await mkdir(options.work, { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}

/**
 * The agent: connects to the broker with its id and secret, takes `run` and `cancel` commands on its
 * own `down` topic and reports on its own `up` topics. It waits (reconnecting) while the server has
 * not approved it yet. On every (re)connect it tells the server which runs it still has in flight.
 */
export class Agent {
  private client?: MqttClient;
  private readonly runs = new Map<number, StepRun>();
  private heartbeatMs = 5000;
  private heartbeat?: NodeJS.Timeout;
  credentials?: Credentials;

  constructor(private readonly options: AgentOptions) {}

  private topic(kind: 'status' | 'log' | 'hb' | 'hello' | 'presence') {
    const c = this.credentials as Credentials;
    return `rm/${c.tenantId}/c/${c.id}/up/${kind}`;
  }

  private get downTopic() {
    const c = this.credentials as Credentials;
    return `rm/${c.tenantId}/c/${c.id}/down`;
  }

  private log(line: string) {
    this.options.log?.(line);
  }

  /** Enrols (first time) and connects; resolves once enrolled, the connection keeps retrying on its own. */
  async start(): Promise<Credentials> {
    const credentials = await enrol(this.options);
    this.credentials = credentials;
    const client = mqtt.connect(credentials.broker, {
      clientId: `agent-${credentials.tenantId}-${credentials.id}`,
      username: credentials.username,
      password: credentials.secret,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: this.options.reconnectMs ?? 5000,
      // refused while PENDING: keep asking until an administrator approves the agent
      reconnectOnConnackError: true,
      connectTimeout: 10_000,
      will: { topic: this.topic('presence'), payload: Buffer.from(JSON.stringify({ online: false })), qos: 1, retain: false },
    });
    this.client = client;
    client.on('connect', () => {
      this.log('connected');
      client.subscribe(this.downTopic, { qos: 1 }, (error) => {
        if (error) return this.log(`subscribe failed: ${error.message}`);
        // every run it knows, finished ones too: a run that finished while the connection was down has its
        // "finished" still on the way, and the server declares a run it does not hear of here LOST
        this.send('hello', { runs: [...this.runs.keys()], agentVersion: AGENT_VERSION } satisfies AgentHeartbeat);
      });
    });
    client.on('error', (error) => this.log(`broker: ${error.message}`));
    client.on('message', (_topic, payload) => {
      try {
        this.onCommand(JSON.parse(payload.toString('utf8')) as AgentCommand);
      } catch (error) {
        this.log(`bad command: ${(error as Error).message}`);
      }
    });
    this.armHeartbeat();
    return credentials;
  }

  /** Step runs this agent has not finished. */
  inFlight(): number[] {
    return [...this.runs.values()].filter((run) => !run.finished).map((run) => run.id);
  }

  private armHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (this.client?.connected) this.send('hb', { runs: this.inFlight() } satisfies AgentHeartbeat, 0);
    }, this.heartbeatMs);
  }

  private send(kind: 'status' | 'log' | 'hb' | 'hello', message: unknown, qos: 0 | 1 = 1) {
    this.client?.publish(this.topic(kind), JSON.stringify(message), { qos, retain: false });
  }

  private onCommand(command: AgentCommand) {
    if (command.type === 'cancel') {
      this.runs.get(command.stepRunId)?.stop('canceled');
      return;
    }
    if (command.type !== 'run' || this.runs.has(command.stepRunId)) return; // a command delivered twice runs once
    if (command.heartbeatMs && command.heartbeatMs !== this.heartbeatMs) {
      this.heartbeatMs = command.heartbeatMs;
      this.armHeartbeat();
    }
    const run = new StepRun(
      command,
      this.options.work,
      {
        chunk: (seq, text) => this.send('log', { stepRunId: command.stepRunId, seq, text } satisfies AgentLogChunk),
        end: (result) => {
          this.send('status', { stepRunId: command.stepRunId, state: 'finished', ...result } satisfies AgentStatus);
          // forget it later: a repeated command for a finished run must not run it again
          setTimeout(() => this.runs.delete(command.stepRunId), 10 * 60_000).unref();
        },
      },
      this.options.graceMs,
    );
    this.runs.set(command.stepRunId, run);
    this.send('status', { stepRunId: command.stepRunId, state: 'started' } satisfies AgentStatus);
    run.start().catch((error: unknown) => this.log(`run ${command.stepRunId} failed to start: ${(error as Error).message}`));
  }

  /** Stops taking work: cancels what runs and closes the connection. */
  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const run of this.runs.values()) run.stop('canceled');
    // connected: what is in flight is delivered first; not connected (refused, e.g. disabled), nothing can be
    const client = this.client;
    await new Promise<void>((resolve) => (client ? client.end(!client.connected, {}, () => resolve()) : resolve()));
  }
}

export { StepRun } from './runner';
