import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { demoAccounts, signIn } from './support/auth';

// The user list as the documentation shows it: 1280 px and 390 px, zh-CN and en-US, light and dark.
// Written to artifacts/screenshots/docs/; `DOCS_SCREENSHOTS=1` also refreshes docs/screenshots/
// (see docs/screenshots/README.md).

const outDirs = [path.join(import.meta.dirname, '../artifacts/screenshots/docs')];
if (process.env.DOCS_SCREENSHOTS === '1') outDirs.push(path.join(import.meta.dirname, '../../docs/screenshots'));
for (const dir of outDirs) mkdirSync(dir, { recursive: true });

const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

for (const locale of ['zh-CN', 'en-US'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`user list in ${locale}, ${theme}, at 1280 and 390 px`, async ({ browser }) => {
      for (const viewport of widths) {
        const context = await browser.newContext({ locale, viewport });
        // the language and theme the app keeps in this browser, as the navbar's switches would set them
        await context.addInitScript(
          ({ lang, mode }) => {
            if (!localStorage.getItem('arco-lang')) {
              localStorage.setItem('arco-lang', lang);
              localStorage.setItem('atrium-settings', JSON.stringify({ state: { theme: mode }, version: 0 }));
            }
          },
          { lang: locale, mode: theme },
        );
        const page = await context.newPage();
        await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/user');
        if (theme === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
        else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
        const first = page
          .locator('.crud-page tr.arco-table-tr')
          .filter({ hasText: /(hq|acme)0\d{3}/ })
          .first();
        await expect(first).toBeVisible({ timeout: 30_000 });
        // nothing runs off the side: the page itself never scrolls sideways
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await page.mouse.move(0, 0);
        const name = `user-list-${viewport.width}-${locale}-${theme}.png`;
        const shot = await page.screenshot({ animations: 'disabled', caret: 'hide' });
        for (const dir of outDirs) writeFileSync(path.join(dir, name), shot);
        await context.close();
      }
    });
  }
}
