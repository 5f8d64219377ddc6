import { randomBytes } from 'node:crypto';
import { expect as baseExpect, test } from '@playwright/test';
import { startProvider, type TestProvider } from '../../apps/server/test/oidc-provider';
import { baseURL } from '../playwright.config';
import { signIn } from './support/auth';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });

// a tenant of its own (made by registering), so no other test meets its single sign-on
const admin = `ssoadm${randomBytes(3).toString('hex')}`;
const password = 'Kx9!harbour-lantern';
let tenantCode = '';
let provider: TestProvider;

test.beforeAll(async () => {
  // a real OpenID Provider on a port of its own, whose client is registered with this server's addresses
  provider = await startProvider({
    redirectUris: [`${baseURL}/api/auth/sso/callback`],
    postLogoutRedirectUris: [`${baseURL}/login`],
    users: {
      'sub-admin': { email: `${admin}@probe.test`, email_verified: true, preferred_username: admin, name: 'SSO admin' },
    },
  });
});
test.afterAll(async () => {
  await provider?.close();
});

test('single sign-on: an administrator sets the tenant’s provider up, then signs in through it and out of it', async ({ page }) => {
  const registered = await page.request.post('/api/system/user/register', {
    data: { accountId: admin, email: `${admin}@probe.test`, password, tenantName: `SSO ${admin}` },
  });
  expect(registered.status()).toBe(200);
  tenantCode = ((await registered.json()) as { data: { tenantCode: string } }).data.tenantCode;
  await signIn(page, admin, password);

  // the user centre's security tab: the redirect URI to register, and the provider's settings
  await page.goto('/user/setting?tab=security');
  const panel = page.getByTestId('tenant-sso');
  await expect(panel.getByTestId('sso-redirect-uri')).toHaveText(`${baseURL}/api/auth/sso/callback`);
  await panel.getByLabel('签发者地址').fill(provider.issuer);
  await panel.getByLabel('客户端 ID').fill(provider.clientId);
  await panel.getByLabel('客户端密钥').fill(provider.clientSecret);
  await panel.locator('[role="switch"]').first().click();
  await panel.getByTestId('sso-save').click();
  await expect(page.getByText('已保存单点登录设置')).toBeVisible();
  await expect(panel).toContainText('已保存（加密存储，不再显示）');

  // signed out: the sign-in page offers single sign-on; the tenant code sends the browser to the provider
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByRole('button', { name: '使用单点登录' }).click();
  await page.locator('#sso-tenant').fill(tenantCode);
  await page.getByRole('button', { name: '继续' }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill('sub-admin');
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
  // the provider's consent, then back to the app, signed in
  await page.locator('button[type="submit"]').click();
  await expect(page.locator('#main-content')).toBeVisible({ timeout: 60_000 });
  // the one-time code left the address, and the session token was never in one
  expect(page.url()).not.toContain('sso_code');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const me = await page.request.post('/api/system/user/userInfoLogin', { headers: { authorization: `Bearer ${token}` } });
  expect(((await me.json()) as { data: { accountId: string } }).data.accountId).toBe(admin);

  // signing out ends the session here and at the provider, which sends the browser back to the sign-in page
  await page.getByRole('button', { name: '用户菜单' }).click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('button[name="logout"], button[autofocus]').first().click();
  await page.waitForURL((url) => url.origin === baseURL && url.pathname === '/login');
  const after = await page.request.post('/api/system/user/userInfoLogin', { headers: { authorization: `Bearer ${token}` } });
  expect(((await after.json()) as { code: number }).code).toBe(1302);
});

test('single sign-on: a tenant code without it says so on the sign-in page, in English too', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('arco-lang', 'en-US'));
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
  await page.locator('#sso-tenant').fill('no-such-tenant');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toHaveText('This organisation has no single sign-on, or its identity provider cannot be reached');
  expect(page.url()).not.toContain('sso_error');
  await page.evaluate(() => localStorage.removeItem('arco-lang'));
});
