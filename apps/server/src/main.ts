// first: V8's heap settings, before anything allocates (docs/adr/022)
import './heap';
import { connect } from 'node:net';
import { ConfigError, loadConfig } from './config';
import { DatabaseError } from './db/client';
import { DataDirLockedError } from './lock';
import { startServer } from './server';

function fail(message: string): never {
  process.stderr.write(`atrium: ${message}\n`);
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

try {
  const { stop, url, app } = await startServer(config);
  const engine = app.database.engine === 'pglite' ? `embedded PGlite in ${config.DATA_DIR}` : 'PostgreSQL';
  process.stdout.write(
    `\nAtrium is running at ${url}  (database: ${engine})\n` +
      (config.SEED === 'demo' ? 'Demo sign-in: admin / Admin@123456  (also user / User@123456, acme / Acme@123456)\n' : '') +
      'Press Ctrl-C to stop.\n\n',
  );
  // Last resort: a promise some code forgot to handle is a bug to log, not a reason to drop every
  // in-flight request. Errors are handled where they arise (connections, Redis, the broker); this only
  // catches what slips through. An uncaught exception still ends the process (its state is unknown).
  process.on('unhandledRejection', (reason) => {
    app.log.error({ err: reason }, 'unhandled promise rejection (a bug); the server keeps running');
  });
  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) fail(`${signal} again: exiting without a clean shutdown`);
    app.log.info({ signal }, 'shutting down');
    // SIGTERM (an orchestrator) drains first; Ctrl-C at a terminal stops at once
    stop(signal === 'SIGTERM' ? config.SHUTDOWN_DRAIN_MS : 0).then(
      () => process.exit(0),
      (error) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
} catch (error) {
  if (error instanceof DataDirLockedError || error instanceof DatabaseError || error instanceof ConfigError) fail(error.message);
  const listenError = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (listenError.syscall === 'listen' || listenError.syscall === 'bind' || listenError.code === 'EADDRINUSE') {
    fail(await describeListenError(listenError, config));
  }
  fail(`could not start: ${(error as Error).message || String(error)}`);
}

/** Says what stopped the listener: a port another process holds, a missing privilege, an address this machine lacks. */
async function describeListenError(
  error: NodeJS.ErrnoException & { port?: number; address?: string },
  config: ReturnType<typeof loadConfig>,
) {
  const port = error.port ?? config.PORT;
  const name = port === config.MQTT_WS_PORT && port !== config.PORT ? 'MQTT_WS_PORT' : 'PORT';
  const host = error.address ?? config.HOST;
  switch (error.code) {
    case 'EADDRINUSE':
      return (await answers(host, port))
        ? `${name} ${port} is already in use on ${host}: another process is listening there`
        : `${name} ${port} on ${host} cannot be bound (EADDRINUSE) although nothing answers there: another process holds it without listening yet, or try again in a moment`;
    case 'EACCES':
      return `${name} ${port} on ${host}: permission denied (ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL':
      return `HOST ${host} is not an address of this machine`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST ${config.HOST} cannot be resolved`;
    default:
      return `cannot listen on ${host}:${port}: ${error.message}`;
  }
}

/** Whether something accepts connections on host:port. */
function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1000 });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}
