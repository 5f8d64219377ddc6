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
  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) fail(`${signal} again: exiting without a clean shutdown`);
    app.log.info({ signal }, 'shutting down');
    stop().then(
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
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') fail(`PORT ${config.PORT} is already in use on ${config.HOST}`);
  throw error;
}
