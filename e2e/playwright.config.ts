import { existsSync, mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 18080);
export const baseURL = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-'));

// `npm test` runs the specs in two lanes side by side, each against a server, broker and data of its own
// (E2E_LANE=1 or 2, each with its own E2E_PORT): one lane drives one page at a time and left a core idle.
// The first lane takes these specs (about half of the time, measured); every other spec, a new one too,
// runs in the second. Without E2E_LANE every spec runs.
const lane = process.env.E2E_LANE;
const firstLane = ['widths', 'shell', 'release'].map((name) => `**/${name}.spec.ts`);
const laneFiles = lane === '1' ? { testMatch: firstLane } : lane === '2' ? { testIgnore: firstLane } : {};

/** Whether something already listens on the port (another run, another checkout's server). */
const portTaken = (p: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: p });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

// only the runner starts the server; its workers load this file too, while the server is up
if (!process.env.TEST_WORKER_INDEX) {
  for (const taken of [port, port + 3]) {
    if (await portTaken(taken)) {
      throw new Error(
        `Port ${taken} on 127.0.0.1 is already in use (the browser tests need ${port} and ${port + 3}). ` +
          `Stop what listens there, or pick other ports: E2E_PORT=${port + 100} npm test (it uses E2E_PORT and E2E_PORT+3).`,
      );
    }
  }
}

export default defineConfig({
  testDir: './tests',
  ...laneFiles,
  // a lane of its own: a run empties its output folder when it starts
  outputDir: lane ? `./artifacts/results-lane${lane}` : './artifacts/results',
  // generous: CI shares machines, and a loaded one runs these several times slower
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  // one retry absorbs a slow machine's hiccup; a test that fails twice fails the run, and a retried one is listed as flaky
  retries: 1,
  reporter: [['list']],
  use: {
    baseURL,
    // an action whose target never shows fails after this, not after the whole test's time
    actionTimeout: 30_000,
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    // a trace records every action's DOM and the screen: the whole run took about a quarter longer with
    // one kept for every test, so a failing test records it on its retry
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // every page, also in contexts a test makes itself, as for a person who asked for less motion: the
        // app then draws no slide-ins (global.css), and a test waits for none
        '--force-prefers-reduced-motion',
        // pages here live seconds: V8's optimising compiler spent more than it saved (about a tenth of the
        // processor time of the shell tests); behaviour is the same, speed is measured by npm run bench
        '--js-flags=--no-opt',
      ],
    },
  },
  webServer: {
    // the compiled server when it is built (npm test builds it first), as in production
    command: existsSync(path.join(import.meta.dirname, '../apps/server/dist/main.js'))
      ? 'node ../apps/server/dist/main.js'
      : 'node --import tsx ../apps/server/src/main.ts',
    url: `${baseURL}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      MQTT_WS_PORT: String(port + 3),
      DATA_DIR: dataDir,
      CAPTCHA: 'off',
      SEED: 'demo',
      LOG_LEVEL: 'warn',
      // sso.spec.ts's OpenID Provider listens on plain http on this machine
      SSO_HTTP_ISSUERS: 'on',
    },
  },
});
