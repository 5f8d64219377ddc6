import { expect, type Page, type Route, test } from '@playwright/test';
import { demoAccounts } from './support/auth';

// The sign-in page comes as HTML with its form (built from the React components, ADR 041); the app's
// code then takes that form over (hydration) instead of drawing it again.

/** React has taken the form over: its handlers are on the account field. */
const hydrated = (page: Page) =>
  page.waitForFunction(() => {
    const field = document.querySelector('#login-account');
    return Boolean(field && Object.keys(field).some((key) => key.startsWith('__reactFiber')));
  });

/** Holds the app's entry script (and any chunk named index-…) until `release` is called. */
async function holdEntry(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/index-[^/]*\.js$/, (route) => (released ? route.continue() : void held.push(route)));
  return {
    release: async () => {
      await expect.poll(() => held.length).toBeGreaterThan(0);
      released = true;
      for (const route of held) await route.continue();
    },
  };
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the sign-in form is in the page as served', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: '登录 Atrium' })).toBeVisible();
    await expect(page.getByLabel('账号', { exact: true })).toBeVisible();
    await expect(page.getByLabel('密码', { exact: true })).toBeVisible();
    await expect(page.locator('form.login-form button[type="submit"]')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    // this server runs with CAPTCHA=off: the page without the captcha's field
    await expect(page.locator('#login-code')).toHaveCount(0);
  });
});

test('the page carries both languages and the captcha variant the server asks for', async ({ request }) => {
  const html = await (await request.get('/login')).text();
  expect(html).toContain('data-captcha="off"');
  expect(html).toContain('登录 Atrium');
  expect(html).toContain('<template id="login-en-US">');
  expect(html).toContain('Sign in to Atrium');
});

test('hydration takes the form over without an error, and signs in', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/login');
  await hydrated(page);
  await expect(page.getByLabel('账号', { exact: true })).toBeFocused();
  // the empty form is refused field by field, as before
  await page.locator('form.login-form button[type="submit"]').click();
  await expect(page.locator('#login-account-error')).not.toBeEmpty();
  expect(errors).toEqual([]);
  await page.getByLabel('账号', { exact: true }).fill(demoAccounts.admin.account);
  await page.getByLabel('密码', { exact: true }).fill(demoAccounts.admin.password);
  await page.getByLabel('密码', { exact: true }).press('Enter');
  await expect(page.locator('#main-content')).toBeVisible({ timeout: 30_000 });
  expect(errors).toEqual([]);
});

test('English and the dark theme are there before the code runs, then hydrate without an error', async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem('arco-lang', 'en-US');
    localStorage.setItem('atrium-settings', JSON.stringify({ state: { theme: 'dark' }, version: 0 }));
  });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const entry = await holdEntry(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: 'Sign in to Atrium' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
  await expect(page.getByText('登录 Atrium')).toHaveCount(0);
  await entry.release();
  await hydrated(page);
  await expect(page.getByLabel('Account', { exact: true })).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Sign in to Atrium' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('what is typed and submitted before the code runs is kept and sent once it has', async ({ page }) => {
  const entry = await holdEntry(page);
  await page.goto('/login?redirect=%2Fsystem%2Fuser', { waitUntil: 'commit' });
  await page.getByLabel('账号', { exact: true }).fill(demoAccounts.admin.account);
  await page.getByLabel('密码', { exact: true }).fill(demoAccounts.admin.password);
  await page.getByLabel('密码', { exact: true }).press('Enter');
  // held, not sent as a GET that would reload the page with the password in its address
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsystem%2Fuser$/);
  await entry.release();
  await expect(page).toHaveURL(/\/system\/user$/, { timeout: 30_000 });
  await expect(page.locator('#main-content')).toBeVisible();
});

test('the remembered account fills the field and the password takes the focus', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('login-account', 'admin'));
  await page.goto('/login');
  await hydrated(page);
  await expect(page.getByLabel('账号', { exact: true })).toHaveValue('admin');
  await expect(page.getByLabel('密码', { exact: true })).toBeFocused();
  await expect(page.getByRole('checkbox')).toBeChecked();
});

test('a signed-in browser opening the sign-in page sees no form and goes on to the app', async ({ page }) => {
  const answer = await page.request.post('/api/system/user/login', { data: demoAccounts.admin, headers: { 'device-type': 'web' } });
  const token = ((await answer.json()) as { data: { token: string } }).data.token;
  await page.addInitScript((t) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('token', t);
      sessionStorage.setItem('seeded', '1');
    }
  }, token);
  const entry = await holdEntry(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.locator('#root')).toBeEmpty();
  await entry.release();
  await expect(page.locator('#main-content')).toBeVisible({ timeout: 30_000 });
});
