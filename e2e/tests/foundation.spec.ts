import { expect, test } from '@playwright/test';

test('the root path lands on the login screen, in Chinese by default', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: '登录 Atrium' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^登\s*录$/ })).toBeVisible();
});

test("an unknown path shows the app's own not-found page", async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(200);
  await expect(page.getByText('页面不存在')).toBeVisible();
});
