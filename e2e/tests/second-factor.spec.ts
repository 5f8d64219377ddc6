import { randomBytes } from 'node:crypto';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { signIn } from './support/auth';
import { decode } from './support/qr';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });

/**
 * The code an authenticator app would show `ahead` ms from now. A code is accepted once per 30 s step:
 * the sign-in uses the next step's code (still inside the server's window), never the one enrolment used.
 */
const codeFor = (secret: string, ahead = 0) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + ahead });

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
}

async function typePassword(page: Page, account: string, password: string) {
  await page.locator('#login-account').fill(account);
  await page.locator('#login-password').fill(password);
  await page.locator('form.login-form button[type="submit"]').click();
}

test('two-step verification: enrol an authenticator app in the user centre, then sign in with the password and a code, or a recovery code', async ({
  page,
}) => {
  // an account of its own (with its own tenant), so no other test meets its second factor
  const account = `mfa${randomBytes(4).toString('hex')}`;
  const password = 'Kx9!mountain-ledger';
  const registered = await page.request.post('/api/system/user/register', {
    data: { accountId: account, email: `${account}@probe.test`, password, tenantName: `MFA ${account}` },
  });
  expect(registered.status()).toBe(200);
  await signIn(page, account, password);

  await page.goto('/user/setting?tab=security');
  const panel = page.locator('section.user-mfa');
  await expect(panel).toContainText('尚未启用两步验证');
  await panel.getByRole('button', { name: '启用验证器应用' }).click();
  const secret = (await panel.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // the QR code carries the same secret, as an otpauth:// address an app reads
  const qr = panel.locator('canvas');
  await expect(qr).toBeVisible();
  const scanned = await decode(qr);
  expect(scanned).toMatch(new RegExp(`^otpauth://totp/Atrium:${account}\\?`));
  expect(new URL(scanned as string).searchParams.get('secret')).toBe(secret);
  // a wrong code says so and changes nothing
  await panel.locator('#mfa-enrol-code').fill('000000');
  await panel.getByRole('button', { name: '确认绑定' }).click();
  await expect(panel.locator('.mfa-error')).toHaveText('验证码不正确，或已使用过');
  await panel.locator('#mfa-enrol-code').fill(codeFor(secret));
  await panel.getByRole('button', { name: '确认绑定' }).click();
  const codes = panel.getByRole('list', { name: '恢复码列表' }).locator('li');
  await expect(codes).toHaveCount(10);
  const recovery = ((await codes.first().textContent()) ?? '').trim();
  expect(recovery).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  await panel.getByRole('button', { name: '我已保存，继续' }).click();
  await expect(panel).toContainText('已启用');
  await expect(panel).toContainText('剩余恢复码：10 个');

  // the password alone no longer signs in: the second step asks for the code, focused
  await signOut(page);
  await typePassword(page, account, password);
  const code = page.locator('#login-mfa-code');
  await expect(code).toBeFocused();
  await code.fill('111111');
  await page.getByRole('button', { name: '验证并登录' }).click();
  await expect(page.locator('#login-mfa-code-error')).toHaveText('验证码不正确，或已使用过');
  // pasted with a space, as apps show it
  const next = codeFor(secret, 30_000);
  await code.fill(`${next.slice(0, 3)} ${next.slice(3)}`);
  await expect(code).toHaveValue(next);
  await page.getByRole('button', { name: '验证并登录' }).click();
  await expect(page.locator('#main-content')).toBeVisible({ timeout: 30_000 });

  // the phone is lost: a recovery code signs in, once
  await signOut(page);
  await typePassword(page, account, password);
  await page.getByRole('button', { name: '使用恢复码' }).click();
  await expect(page.getByText('请输入一个未用过的恢复码')).toBeVisible();
  await page.locator('#login-mfa-code').fill(recovery.toUpperCase());
  await page.getByRole('button', { name: '验证并登录' }).click();
  await expect(page.locator('#main-content')).toBeVisible({ timeout: 30_000 });
  await page.goto('/user/setting?tab=security');
  await expect(page.locator('section.user-mfa')).toContainText('剩余恢复码：9 个');
});

test('a tenant that requires two-step verification leads a user without it through enrolment right after the password', async ({
  page,
}) => {
  const account = `mfe${randomBytes(4).toString('hex')}`;
  const password = 'Kx9!mountain-ledger';
  const registered = await page.request.post('/api/system/user/register', {
    data: { accountId: account, email: `${account}@probe.test`, password, tenantName: `MFA ${account}` },
  });
  expect(registered.status()).toBe(200);
  // the account administers its new tenant: in its security settings it requires a second factor of everyone
  await signIn(page, account, password);
  await page.goto('/user/setting?tab=security');
  const policy = page.locator('section.user-mfa-policy');
  await policy.locator('.arco-select').click();
  await page.locator('.arco-select-option').filter({ hasText: '所有人必须' }).click();
  await expect(page.getByText('已保存组织的两步验证要求')).toBeVisible();
  await expect(page.locator('section.user-mfa')).toContainText('您所在的组织要求两步验证');

  await signOut(page);
  await typePassword(page, account, password);
  await expect(page.getByText('您所在的组织要求两步验证')).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  expect(new URL((await decode(page.locator('.mfa-enrol-qr canvas'))) as string).searchParams.get('secret')).toBe(secret);
  // nothing else opens meanwhile: the app is still signed out
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.locator('#mfa-enrol-code').fill(codeFor(secret));
  await page.getByRole('button', { name: '确认绑定' }).click();
  await expect(page.getByRole('list', { name: '恢复码列表' }).locator('li')).toHaveCount(10);
  await page.getByRole('button', { name: '我已保存，继续' }).click();
  await expect(page.locator('#main-content')).toBeVisible({ timeout: 30_000 });
  await page.goto('/user/setting?tab=security');
  await expect(page.locator('section.user-mfa')).toContainText('您所在的组织要求两步验证');
  await expect(page.locator('section.user-mfa')).toContainText('已启用');
});
