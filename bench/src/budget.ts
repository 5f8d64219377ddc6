// Transfer budgets, measured over the wire: starts the server on a throwaway embedded database, loads
// the login page and then the workplace after signing in, in Chromium with the cache disabled, and adds
// up the bytes each JS and CSS response took on the network (CDP encodedDataLength: headers and the
// body as sent, compressed when the server compressed it). Fails above the budgets in bench/budgets.json.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { repoRoot, serverEntry, startProcess } from './server-process';

// maxFiles: JS and CSS files before the page is usable; on a slow line each is a round trip (the boot chunk, build/boot-chunk.ts)
type Budgets = { routes: { name: 'login' | 'workplace'; maxTransfer: number; maxFiles?: number }[] };
type Transfer = { bytes: number; files: number; requests: number; each: { url: string; bytes: number }[] };

const budgets = JSON.parse(readFileSync(path.join(repoRoot, 'bench/budgets.json'), 'utf8')) as Budgets;
if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
  console.error('No web build: run `npm run build` first.');
  process.exit(1);
}

const port = Number(process.env.BUDGET_PORT ?? Number(process.env.E2E_PORT ?? 18080) + 10);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atrium-budget-'));
const server = await startProcess(
  serverEntry(),
  {
    PORT: String(port),
    MQTT_WS_PORT: String(port + 3),
    DATA_DIR: dataDir,
    CAPTCHA: 'off',
    SEED: 'demo',
    LOG_LEVEL: 'warn',
  },
  port,
);
const browser = await chromium
  .launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  })
  .catch(async (error) => {
    await server.stop();
    throw error;
  });

/** Loads one page cold and sums the network bytes of its scripts and style sheets. */
async function measure(target: 'login' | 'workplace'): Promise<Transfer> {
  const context = await browser.newContext({ locale: 'zh-CN' });
  try {
    const page = await context.newPage();
    if (target === 'workplace') {
      // sign in through the login screen (not measured), then load the workplace cold
      await page.goto(`${server.url}/login`);
      await page.locator('#login-account').fill('admin');
      await page.locator('#login-password').fill('Admin@123456');
      await page.locator('form.login-form button[type="submit"]').click();
      await page.locator('#main-content').waitFor({ state: 'visible' });
      await page.goto('about:blank');
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const kinds = new Map<string, string>();
    const urls = new Map<string, string>();
    const result: Transfer = { bytes: 0, files: 0, requests: 0, each: [] };
    cdp.on('Network.requestWillBeSent', () => {
      result.requests++;
    });
    cdp.on('Network.responseReceived', (event) => {
      kinds.set(event.requestId, event.type);
      urls.set(event.requestId, event.response.url);
    });
    cdp.on('Network.loadingFinished', (event) => {
      const kind = kinds.get(event.requestId);
      if (kind === 'Script' || kind === 'Stylesheet') {
        result.bytes += event.encodedDataLength;
        result.files++;
        result.each.push({ url: new URL(urls.get(event.requestId) ?? '', server.url).pathname, bytes: event.encodedDataLength });
      }
    });
    if (target === 'login') {
      await page.goto(`${server.url}/login`);
      await page.locator('button[type=submit]').first().waitFor({ state: 'visible' });
    } else {
      await page.goto(`${server.url}/dashboard/workplace`);
      await page.locator('#main-content').waitFor({ state: 'visible' });
    }
    await page.waitForLoadState('networkidle');
    return result;
  } finally {
    await context.close();
  }
}

let failures = 0;
try {
  console.log('transfer budgets (Chromium, cache disabled, JS + CSS as sent over the wire):');
  for (const route of budgets.routes) {
    const transfer = await measure(route.name);
    const ok = transfer.bytes <= route.maxTransfer && transfer.files <= (route.maxFiles ?? Number.POSITIVE_INFINITY);
    if (!ok) failures++;
    console.log(
      `  ${ok ? '✓' : '✗'} ${route.name.padEnd(10)} ${`${(transfer.bytes / 1024).toFixed(1)} KB`.padStart(10)} / ${(route.maxTransfer / 1024).toFixed(0)} KB` +
        `  (${transfer.files}${route.maxFiles ? ` / ${route.maxFiles}` : ''} JS/CSS files, ${transfer.requests} requests)`,
    );
    // over budget (or asked for): the largest files, to see what grew
    if (!ok || process.env.BUDGET_VERBOSE)
      for (const file of [...transfer.each].sort((a, b) => b.bytes - a.bytes).slice(0, process.env.BUDGET_VERBOSE ? 100 : 12))
        console.log(`      ${`${(file.bytes / 1024).toFixed(1)} KB`.padStart(9)}  ${file.url}`);
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`budget: ${budgets.routes.length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
