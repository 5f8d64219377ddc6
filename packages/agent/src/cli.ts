import { parseArgs } from 'node:util';
import { Agent } from './agent';

/** atrium-agent --server URL [--enrol TOKEN] --work DIR [--labels a,b] [--broker ws://host:port/mqtt] */
const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    enrol: { type: 'string' },
    work: { type: 'string' },
    labels: { type: 'string' },
    broker: { type: 'string' },
    hostname: { type: 'string' },
  },
});
if (!values.server || !values.work) {
  process.stderr.write('usage: atrium-agent --server URL [--enrol TOKEN] --work DIR [--labels a,b] [--broker URL]\n');
  process.exit(2);
}
const agent = new Agent({
  server: values.server,
  work: values.work,
  enrol: values.enrol,
  broker: values.broker,
  hostname: values.hostname,
  labels: values.labels
    ? values.labels
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean)
    : [],
  log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
});
agent.start().then(
  (credentials) => process.stdout.write(`${new Date().toISOString()} enrolled as client ${credentials.id}\n`),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  },
);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void agent.stop().finally(() => process.exit(0)));
}
