import { expect, type Page } from '@playwright/test';

/** The demo accounts (`SEED=demo`). */
export const demoAccounts = {
  admin: { account: 'admin', password: 'Admin@123456' },
  user: { account: 'user', password: 'User@123456' },
  acme: { account: 'acme', password: 'Acme@123456' },
} as const;

/**
 * Signs in through the login screen (the server runs with CAPTCHA=off) and waits until the signed-in
 * layout shows. `redirect` opens `/login?redirect=…` so sign-in lands there.
 */
export async function signIn(page: Page, account: string, password: string, redirect?: string): Promise<void> {
  await page.goto(redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login');
  await page.locator('#login-account').fill(account);
  await page.locator('#login-password').fill(password);
  await page.locator('form.login-form button[type="submit"]').click();
  // password hashing is deliberately slow: on a shared, busy machine sign-in can take well over 10 s
  await expect(page.locator('#main-content')).toBeVisible({ timeout: 30_000 });
}

/** The session token the app keeps in localStorage. */
export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('token'));
}

/** The super admin comes back to the tenant they used last: switch to `name` (as the user menu shows it) when elsewhere. */
export async function switchTenant(page: Page, name: string): Promise<void> {
  const userMenu = page.getByRole('button', { name: '用户菜单' });
  if ((await userMenu.textContent())?.includes(name)) return;
  await userMenu.click();
  await page.getByRole('menuitem', { name: '切换租户' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: '切换租户' })
    .getByRole('button', { name: `切换 ${name}` })
    .click();
  // a switch signs in again (new token, user info, menu): slow on a busy machine
  await expect(userMenu).toContainText(name, { timeout: 30_000 });
}
