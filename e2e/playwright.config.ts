import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 18080);
export const baseURL = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-'));

export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // one retry absorbs a slow machine's hiccup; a test that fails twice fails the run, and a retried one is listed as flaky
  retries: 1,
  reporter: [['list']],
  use: {
    baseURL,
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
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
    },
  },
});
