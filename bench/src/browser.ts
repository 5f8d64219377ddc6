// Cold page loads in Chromium (fresh profile, cache disabled): bytes transferred, requests, and the
// time until the login form's submit button / the workplace's main content is visible. Medians of 5.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type ColdLoad = { bytes: number; requests: number; visibleMs: number };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function coldLoad(
  baseUrl: string,
  target: 'login' | 'workplace',
  credentials: { account: string; password: string },
): Promise<ColdLoad> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'atrium-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, args, headless: true, locale: 'zh-CN' });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    if (target === 'workplace') {
      // sign in first (not measured), then load the workplace cold
      await page.goto(`${baseUrl}/login`);
      const response = await page.request.post(`${baseUrl}/api/system/user/login`, { data: credentials });
      const token = (await response.json()).data?.token as string;
      await page.evaluate((t) => {
        localStorage.setItem('token', t);
        localStorage.setItem('tokenFlag', 'flag');
      }, token);
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    let bytes = 0;
    let requests = 0;
    cdp.on('Network.requestWillBeSent', () => {
      requests++;
    });
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
      bytes += event.encodedDataLength;
    });
    const started = Date.now();
    if (target === 'login') {
      await page.goto(`${baseUrl}/login`);
      await page.locator('button[type=submit]').first().waitFor({ state: 'visible' });
    } else {
      await page.goto(`${baseUrl}/dashboard/workplace`);
      await page.locator('main, .arco-layout-content').first().waitFor({ state: 'visible' });
      await page.waitForLoadState('networkidle');
    }
    const visibleMs = Date.now() - started;
    await page.waitForLoadState('networkidle');
    return { bytes, requests, visibleMs };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/** Five cold loads of each page; prints and returns the medians. */
export async function measureColdLoads(baseUrl: string, credentials: { account: string; password: string }, runs = 5) {
  const results: Record<string, ColdLoad> = {};
  for (const target of ['login', 'workplace'] as const) {
    const samples: ColdLoad[] = [];
    for (let i = 0; i < runs; i++) samples.push(await coldLoad(baseUrl, target, credentials));
    results[target] = {
      bytes: median(samples.map((s) => s.bytes)),
      requests: median(samples.map((s) => s.requests)),
      visibleMs: median(samples.map((s) => s.visibleMs)),
    };
  }
  console.log(`\ncold loads in Chromium (fresh profile, cache disabled, median of ${runs}):`);
  console.log('page        transferred  requests  visible after');
  for (const [page, r] of Object.entries(results)) {
    console.log(
      `${page.padEnd(10)}  ${`${(r.bytes / 1024).toFixed(1)} KB`.padStart(11)}  ${String(r.requests).padStart(8)}  ${`${r.visibleMs} ms`.padStart(13)}`,
    );
  }
  return results;
}
