import { expect as baseExpect, test } from '@playwright/test';
import { demoAccounts, signIn } from './support/auth';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });

test('a chart fills its container’s height as well as its width, and follows it when it grows', async ({ page }) => {
  test.setTimeout(180_000);
  const { acme } = demoAccounts;
  await signIn(page, acme.account, acme.password, '/visualization/data-analysis');
  const box = page.getByTestId('canvas-members');
  await expect(box).toHaveAttribute('data-ready', 'true');
  const frame = page.getByTestId('chart-members').locator('.chart-frame');
  const heightOf = (locator: typeof box) => locator.evaluate((node) => Math.round(node.getBoundingClientRect().height));
  expect(await heightOf(box)).toBe(await heightOf(frame));
  // the container grows: the chart and its canvas follow
  await frame.evaluate((node) => {
    (node as HTMLElement).style.height = '480px';
  });
  await expect.poll(() => heightOf(box)).toBe(480);
  await expect.poll(() => heightOf(box.locator('canvas').first())).toBe(480);
});
