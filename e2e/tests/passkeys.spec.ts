import { randomBytes } from 'node:crypto';
import { expect as baseExpect, type CDPSession, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { baseURL } from '../playwright.config';
import { demoAccounts, signIn } from './support/auth';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });

/**
 * WebAuthn binds a passkey to a domain name: an IP address is no relying-party id, so this test opens the
 * app at http://localhost (a secure context, as https is), not 127.0.0.1. The server takes the relying
 * party from the request's host (no WEBAUTHN_ORIGIN set).
 */
const origin = baseURL.replace('127.0.0.1', 'localhost');

type Credential = { credentialId: string; privateKey: string; rpId: string; signCount: number; isResidentCredential: boolean };

/** A virtual security key in the page's browser (DevTools protocol), touched at once when asked. */
async function securityKey(cdp: CDPSession, credential?: Credential) {
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'usb',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  if (credential) await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as Credential[],
    unplug: () => cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId }),
  };
}

async function passwordStep(page: Page, account: string, password: string) {
  await page.goto(`${origin}/login`);
  await page.locator('#login-account').fill(account);
  await page.locator('#login-password').fill(password);
  await page.locator('form.login-form button[type="submit"]').click();
}

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${origin}/login`);
}

async function addPasskey(page: Page, name: string) {
  await page.goto(`${origin}/user/setting?tab=security`);
  const panel = page.locator('section.user-passkeys');
  await panel.locator('#passkey-name').fill(name);
  await panel.getByRole('button', { name: '添加通行密钥' }).click();
}

test('passkeys: add one in the user centre, sign in with it; a browser without it and a removed passkey are refused', async ({
  page,
  browser,
}) => {
  const account = `pk${randomBytes(4).toString('hex')}`;
  const password = 'Kx9!mountain-ledger';
  const registered = await page.request.post(`${origin}/api/system/user/register`, {
    data: { accountId: account, email: `${account}@probe.test`, password, tenantName: `Passkey ${account}` },
  });
  expect(registered.status()).toBe(200);
  const cdp = await page.context().newCDPSession(page);
  const first = await securityKey(cdp);
  await passwordStep(page, account, password);
  await expect(page.locator('#main-content')).toBeVisible();

  // the first passkey is the first second factor: the recovery codes come with it
  await addPasskey(page, '办公室密钥');
  await expect(page.getByRole('list', { name: '恢复码列表' }).locator('li')).toHaveCount(10);
  await page.getByRole('button', { name: '我已保存，继续' }).click();
  const panel = page.locator('section.user-passkeys');
  await expect(panel).toContainText('办公室密钥');
  await expect(panel).toContainText('尚未使用');
  const [kept] = await first.credentials();
  expect(kept?.rpId).toBe('localhost');

  // signed out, the password asks for the second step, and the passkey signs in
  await signOut(page);
  await passwordStep(page, account, password);
  await page.getByRole('button', { name: '使用通行密钥' }).click();
  await expect(page.locator('#main-content')).toBeVisible();
  expect((await first.credentials())[0]?.signCount).toBeGreaterThan(0);
  await page.goto(`${origin}/user/setting?tab=security`);
  await expect(panel).toContainText('最近使用');

  // another browser, with a security key that does not hold the passkey: refused, still signed out
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await securityKey(await other.newCDPSession(stranger));
  await passwordStep(stranger, account, password);
  await stranger.getByRole('button', { name: '使用通行密钥' }).click();
  await expect(stranger.locator('#login-mfa-code-error')).toHaveText('通行密钥验证未完成或未通过，请重试');
  await expect(stranger.locator('#main-content')).toHaveCount(0);
  await other.close();

  // a second key joins, then the first is removed in the user centre
  const saved = kept as Credential;
  await first.unplug();
  const second = await securityKey(cdp);
  await addPasskey(page, '备用密钥');
  await expect(panel).toContainText('备用密钥');
  await panel.getByRole('button', { name: '删除 办公室密钥' }).click();
  await page.getByRole('button', { name: '确定' }).click();
  await expect(panel).not.toContainText('办公室密钥');
  const [spare] = await second.credentials();
  await second.unplug();

  // the removed passkey, in the browser again, opens nothing
  const removed = await securityKey(cdp, saved);
  await signOut(page);
  await passwordStep(page, account, password);
  await page.getByRole('button', { name: '使用通行密钥' }).click();
  await expect(page.locator('#login-mfa-code-error')).toHaveText('通行密钥验证未完成或未通过，请重试');
  await removed.unplug();
  // the one still registered does
  await securityKey(cdp, spare as Credential);
  await page.getByRole('button', { name: '使用通行密钥' }).click();
  await expect(page.locator('#main-content')).toBeVisible();
});

test("an administrator removes a user's two-step verification from the user list, after confirming", async ({ page }) => {
  // (a retry meets the factor the first try set up: it goes first, through the API)
  const adminLogin = await page.request.post('/api/system/user/login', { data: demoAccounts.admin });
  const adminHeaders = { authorization: `Bearer ${((await adminLogin.json()) as { data: { token: string } }).data.token}` };
  const listed = await page.request.get('/api/system/user/user?accountId=user', { headers: adminHeaders });
  const userId = ((await listed.json()) as { data: { list: { id: number }[] } }).data.list[0]?.id;
  await page.request.delete(`/api/system/user/mfa/${userId}`, { headers: adminHeaders });
  // the demo user sets up an authenticator app through the API, as the user centre would
  const login = await page.request.post('/api/system/user/login', { data: { account: 'user', password: 'User@123456' } });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const headers = { authorization: `Bearer ${token}` };
  const begun = await page.request.post('/api/user/mfa/totp', { headers });
  const secret = ((await begun.json()) as { data: { secret: string } }).data.secret;
  const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
  expect((await page.request.post('/api/user/mfa/totp/confirm', { headers, data: { code } })).status()).toBe(200);
  const asked = await page.request.post('/api/system/user/login', { data: { account: 'user', password: 'User@123456' } });
  expect(((await asked.json()) as { data: { mfa?: string } }).data.mfa).toBe('required');

  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/user');
  // not on one's own row: one's own factors are removed in the user centre, with a code
  const ownRow = page.locator('tr.arco-table-tr').filter({ has: page.getByRole('cell', { name: 'admin', exact: true }) });
  await expect(ownRow).toBeVisible();
  const ownMore = ownRow.getByRole('button', { name: '更多' });
  if (await ownMore.count()) {
    await ownMore.click();
    await expect(page.locator('.crud-more-actions')).toBeVisible();
    await expect(page.locator('.crud-more-actions').getByRole('button', { name: '解除两步验证' })).toHaveCount(0);
    await page.keyboard.press('Escape');
  } else await expect(ownRow.getByRole('button', { name: '解除两步验证' })).toHaveCount(0);
  const userRow = page.locator('tr.arco-table-tr').filter({ has: page.getByRole('cell', { name: 'user', exact: true }) });
  // in the row's menu, beside resetting the password
  await userRow.getByRole('button', { name: '更多' }).click();
  await page.locator('.crud-more-actions').getByRole('button', { name: '解除两步验证' }).click();
  await expect(page.locator('.arco-popconfirm')).toContainText('验证器、通行密钥');
  await page.locator('.arco-popconfirm').getByRole('button', { name: '确定' }).click();
  await expect(page.locator('.arco-message')).toContainText('已解除两步验证');
  // the password alone signs the user in again
  const after = await page.request.post('/api/system/user/login', { data: { account: 'user', password: 'User@123456' } });
  expect(((await after.json()) as { data: { token?: string } }).data.token).toEqual(expect.any(String));
});
