import { expect, type Page } from '@playwright/test';

/** The demo accounts (`SEED=demo`). */
export const demoAccounts = {
  admin: { account: 'admin', password: 'Admin@123456' },
  user: { account: 'user', password: 'User@123456' },
  acme: { account: 'acme', password: 'Acme@123456' },
} as const;

/**
 * Signs in through the login screen (the server runs with CAPTCHA=off) and waits until the signed-in
 * layout shows. `redirect` opens `/login?redirect=…` so sign-in lands there. The tests of signing in use
 * this; the others use `signIn`.
 */
export async function signInThroughForm(page: Page, account: string, password: string, redirect?: string): Promise<void> {
  await page.goto(loginUrl(redirect));
  await page.locator('#login-account').fill(account);
  await page.locator('#login-password').fill(password);
  await page.locator('form.login-form button[type="submit"]').click();
  // password hashing is deliberately slow: on a shared, busy machine sign-in can take well over 10 s
  await expect(page.locator('#main-content')).toBeVisible({ timeout: 30_000 });
}

const loginUrl = (redirect?: string) => (redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login');

/**
 * Signs in as the tests that are not about signing in need it: the session is made through the API (the
 * same call the form makes), the token stored where the app keeps it, and the login route sends the
 * signed-in browser where sign-in would have (`redirect`, or the first page the role may open). Waits until
 * the signed-in layout shows.
 */
export async function signIn(page: Page, account: string, password: string, redirect?: string): Promise<void> {
  const answer = await page.request.post('/api/system/user/login', { data: { account, password }, headers: { 'device-type': 'web' } });
  const token = ((await answer.json()) as { data?: { token?: string } }).data?.token;
  if (!token) throw new Error(`sign-in of ${account} failed: ${answer.status()} ${await answer.text()}`);
  await page.goto('/login');
  await page.evaluate((t) => {
    localStorage.setItem('token', t);
    localStorage.setItem('tokenFlag', 'flag');
  }, token);
  await page.goto(loginUrl(redirect));
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
