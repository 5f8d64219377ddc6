import { loadConfig } from '../config';
import { configuredDatabase, openDatabase } from '../db/client';
import { lockDataDir } from '../lock';
import { configuredKeys, openSecrets, rotateSecrets } from './at-rest';
import { SecretBox } from './box';

/**
 * `npm run secrets:rotate -w apps/server` (with the server's own environment): re-encrypts every stored
 * secret with the first key of SECRETS_KEY (or SECRETS_KEY_FILE). Give the new key first and the old
 * one after it (`SECRETS_KEY=NEW,OLD`); once it has run, the old key can be dropped. An embedded (PGlite)
 * demo that used its own key file gives `SECRETS_KEY=NEW,$(cat DATA_DIR/secrets.key)` and then keeps the
 * new key in SECRETS_KEY or that file. The server must be stopped for an embedded database (DATA_DIR is locked).
 */
async function main() {
  const config = loadConfig();
  const embedded = !config.DATABASE_URL;
  const unlock = embedded ? lockDataDir(config.DATA_DIR) : () => {};
  try {
    const database = await openDatabase(configuredDatabase(config));
    try {
      const log = { info: () => {}, warn: () => {} };
      const keys = await configuredKeys(config);
      if (keys.length === 0) throw new Error('give the new key first in SECRETS_KEY (SECRETS_KEY=NEW,OLD) or SECRETS_KEY_FILE');
      // refuses, as the server does, when something is sealed with a key not given
      await openSecrets(config, database, log);
      const count = await rotateSecrets(database, new SecretBox(keys));
      process.stdout.write(`${count} secret(s) re-encrypted with key ${keys[0]?.id}; the other keys may now be removed\n`);
    } finally {
      await database.close();
    }
  } finally {
    unlock();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
