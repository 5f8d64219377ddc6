import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

// What the sign-in screen downloads on a first visit, gzip-compressed as a CDN or proxy would send it.
test('the login page loads no layout, chart, table or dashboard code and stays within 180 KB', async ({ page }) => {
  const assets = new Map<string, Promise<Buffer>>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (/\.(js|css)$/.test(url.pathname)) assets.set(url.pathname, response.body());
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: '登录 Atrium' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  const sizes = await Promise.all([...assets].map(async ([path, body]) => ({ path, gzip: gzipSync(await body, { level: 9 }).length })));
  const js = sizes.filter((a) => a.path.endsWith('.js')).reduce((n, a) => n + a.gzip, 0);
  const css = sizes.filter((a) => a.path.endsWith('.css')).reduce((n, a) => n + a.gzip, 0);
  console.log(`login first load: ${sizes.length} files, JS ${js} B + CSS ${css} B = ${js + css} B gzip`);

  for (const name of ['AppLayout', 'WorkplacePage', 'StagingPage', 'echarts', 'Table', 'en-US']) {
    expect(sizes.map((a) => a.path).filter((path) => path.includes(name))).toEqual([]);
  }
  // 184,676 B once the single sign-on and passkey entries came; 174,274 B since the first page's modules
  // are one boot chunk (ADR 052). The transfer budget (bench/budgets.json, brotli as served) is tighter.
  expect(js + css).toBeLessThanOrEqual(180 * 1024);
});
