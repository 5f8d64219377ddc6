import { commandLine, usageError } from '@atrium/contracts/command-line';
import { Agent } from './agent';

const usage = `usage: atrium-agent --server URL --work DIR [options]
       (from the repository: npm run agent -- --server URL --work DIR [options])

  --server URL     the Atrium server's address (required)
  --work DIR       where the agent keeps its credentials and runs release steps (required)
  --enrol TOKEN    the one-time enrolment token of a new client (first start only)
  --labels a,b     labels this host offers to environments
  --broker URL     the broker's WebSocket address (default: the one the server names)
  --hostname NAME  the name the agent reports (default: the host's name)
  --help           print this text
`;

const values = commandLine(
  {
    server: { type: 'string' },
    enrol: { type: 'string' },
    work: { type: 'string' },
    labels: { type: 'string' },
    broker: { type: 'string' },
    hostname: { type: 'string' },
  },
  usage,
);
if (!values.server || !values.work) usageError(usage);
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
