import { expect, type Page } from '@playwright/test';

/**
 * No toast is showing, checked once after two animation frames: a toast is raised before the page
 * shows the failure in place, so by then it is on screen. (`toHaveCount(0)` would wait until a toast,
 * which lasts 5 s, had gone, and pass.)
 */
export async function expectNoToast(page: Page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect(await page.locator('.arco-message').count()).toBe(0);
}
