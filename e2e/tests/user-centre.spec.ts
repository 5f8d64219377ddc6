import { expect as baseExpect, type Page, test } from '@playwright/test';
import { demoAccounts, signIn, storedToken } from './support/auth';
import { decode } from './support/qr';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });

/** Withdraws whatever request an earlier run left under review, through the API. */
async function withdrawPending(page: Page) {
  const headers = { authorization: `Bearer ${await storedToken(page)}` };
  const list = (await (await page.request.get('/api/user/certification', { headers })).json()).data as { id: number; status: string }[];
  for (const c of list.filter((r) => r.status === 'auditing'))
    await page.request.put(`/api/user/certification/${c.id}/withdraw`, { headers, data: {} });
}

test('certification: checked in the page, submitted, then withdrawn from the user centre; activity and profile QR', async ({ page }) => {
  await signIn(page, demoAccounts.user.account, demoAccounts.user.password);
  await withdrawPending(page);

  await page.goto('/user/setting?tab=certification');
  const form = page.getByTestId('cert-form');
  const field = (label: string) => form.locator('.arco-form-item').filter({ hasText: label });
  await field('企业名称').locator('input').fill('Acme 贸易有限公司');
  await field('组织机构代码').locator('input').fill('abc');
  await field('法人姓名').locator('input').fill('王五');
  await field('证件号码').locator('input').fill('12');
  await page.getByTestId('cert-submit').click();
  await expect(field('组织机构代码')).toContainText('统一社会信用代码');
  await expect(field('证件号码')).toContainText('证件号码');
  await field('组织机构代码').locator('input').fill('91310000MA1K4XXX0A');
  await field('证件号码').locator('input').fill('110101199001011234');
  await page.getByTestId('cert-submit').click();
  await expect(page.getByText('已提交，等待审核')).toBeVisible();
  await expect(page.getByTestId('cert-pending')).toBeVisible();

  await page.goto('/user/info');
  const records = page.getByTestId('cert-records');
  const row = records.locator('tr.arco-table-tr').filter({ hasText: 'Acme 贸易有限公司' }).first();
  await expect(row).toContainText('审核中');
  await row.getByRole('button', { name: '撤回' }).click();
  await page.locator('.arco-popconfirm').getByRole('button', { name: '确定' }).click();
  await expect(row).toContainText('已撤回');

  await expect(page.getByTestId('activity-logins').locator('li').first()).toBeVisible();
  const qr = page.getByTestId('profile-qr').locator('canvas');
  await expect(qr).toBeVisible();
  expect(await decode(qr)).toBe(new URL('/user/info', page.url()).toString());
});

test('security settings list the own sessions and sign another one out', async ({ page, browser }) => {
  // a second device of the same account
  const other = await browser.newContext({ locale: 'zh-CN' });
  const otherPage = await other.newPage();
  await signIn(otherPage, demoAccounts.user.account, demoAccounts.user.password);
  await signIn(page, demoAccounts.user.account, demoAccounts.user.password, '/user/setting?tab=security');
  const sessions = page.getByTestId('own-sessions');
  await expect(sessions.getByText('当前会话')).toBeVisible();
  await expect(sessions.getByRole('button', { name: '下线', exact: true }).first()).toBeVisible();
  await page.getByTestId('sessions-end-others').click();
  await page.locator('.arco-popconfirm').getByRole('button', { name: '确定' }).click();
  await expect(page.getByText(/已下线 \d+ 个会话/)).toBeVisible();
  await expect(sessions.getByRole('button', { name: '下线', exact: true })).toHaveCount(0);
  // the other device is signed out: its next page load lands on sign-in
  await otherPage.goto('/dashboard/workplace');
  await expect(otherPage).toHaveURL(/\/login/);
  await other.close();
});

test('security settings make an API token, show it once, and revoke it: the API refuses it at once', async ({ page }) => {
  await signIn(page, demoAccounts.user.account, demoAccounts.user.password, '/user/setting?tab=security');
  const section = page.getByTestId('api-tokens');
  await expect(section.getByText('API 令牌', { exact: true })).toBeVisible();
  const name = `nightly export ${Date.now()}`;
  await page.getByTestId('tokens-create').click();
  const form = page.getByTestId('token-form');
  const field = (label: string) => form.locator('.arco-form-item').filter({ hasText: label });
  // nothing picked: the form names what is missing and nothing is made
  await page.locator('.arco-modal').getByRole('button', { name: '创建' }).click();
  await expect(field('名称')).toContainText('名称');
  await field('名称').locator('input').fill(name);
  const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await field('到期时间').locator('input').fill(expiry);
  await field('到期时间').locator('input').press('Enter');
  // only the user's own permissions are offered: the user list, not the tenants
  const permissions = page.getByTestId('token-permissions');
  await expect(permissions.getByText('(system:tenant)')).toHaveCount(0);
  await permissions.locator('.token-permission-group').filter({ hasText: '(system:user)' }).locator('.arco-checkbox').first().click();
  await page.locator('.arco-modal').getByRole('button', { name: '创建' }).click();

  const shown = page.getByTestId('token-created');
  await expect(shown).toContainText('atr_');
  await expect(page.getByText('关闭后将无法再次查看此令牌')).toBeVisible();
  const token = ((await shown.textContent()) ?? '').trim().match(/atr_[A-Za-z0-9_-]+/)?.[0] as string;
  expect(token).toBeTruthy();
  const headers = { authorization: `Bearer ${token}` };
  expect((await page.request.get('/api/system/user/user', { headers })).status()).toBe(200);
  // the user may read the posts; the token may not
  expect((await page.request.get('/api/system/post', { headers })).status()).toBe(403);
  await page.getByRole('button', { name: '我已保存' }).click();
  await expect(shown).toBeHidden();

  const row = section.locator('tr.arco-table-tr').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(section).not.toContainText(token);
  await row.getByRole('button', { name: '吊销' }).click();
  await page.locator('.arco-popconfirm').getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('令牌已吊销')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await page.request.get('/api/system/user/user', { headers })).status()).toBe(401);
});

test('security settings change the phone only with the current password', async ({ page }) => {
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password, '/user/setting?tab=security');
  const contact = page.getByTestId('own-contact');
  const phone = contact.getByLabel('手机号');
  await expect(phone).not.toHaveValue('');
  const before = await phone.inputValue();
  await phone.fill('139-0000-0031');
  await contact.getByLabel('当前密码').fill('not-my-password');
  await contact.getByRole('button', { name: '保存手机与邮箱' }).click();
  await expect(contact.locator('.arco-form-message').filter({ hasText: '当前密码' })).toBeVisible();
  // a malformed phone is refused in the page before anything is sent
  await phone.fill("1' or '1'='1");
  await contact.getByLabel('当前密码').fill(demoAccounts.acme.password);
  await contact.getByRole('button', { name: '保存手机与邮箱' }).click();
  await expect(contact.locator('.arco-form-message').filter({ hasText: '手机号' })).toBeVisible();
  await phone.fill('139-0000-0031');
  await contact.getByRole('button', { name: '保存手机与邮箱' }).click();
  await expect(page.getByText('手机与邮箱已更新')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('own-contact').getByLabel('手机号')).toHaveValue('139-0000-0031');
  // back as it was, for the other tests
  await page.getByTestId('own-contact').getByLabel('手机号').fill(before);
  await page.getByTestId('own-contact').getByLabel('当前密码').fill(demoAccounts.acme.password);
  await page.getByTestId('own-contact').getByRole('button', { name: '保存手机与邮箱' }).click();
  await expect(page.getByText('手机与邮箱已更新')).toBeVisible();
});

test('a sales order shows a QR code of its number', async ({ page }) => {
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password, '/erp/sale');
  const first = page
    .locator('tr.arco-table-tr')
    .filter({ has: page.getByRole('button', { name: '详情' }) })
    .first();
  await first.getByRole('button', { name: '详情' }).click();
  const dialog = page.locator('.arco-modal');
  const orderNo = (await dialog.locator('.arco-modal-title').innerText()).trim();
  const qr = dialog.getByTestId('sale-qr').locator('canvas');
  await expect(qr).toBeVisible();
  expect(await decode(qr)).toBe(orderNo);
});

test('the user centre reads in English and dark mode', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(() => {
    localStorage.setItem('arco-lang', 'en-US');
    if (!localStorage.getItem('atrium-settings'))
      localStorage.setItem('atrium-settings', JSON.stringify({ state: { theme: 'dark' }, version: 0 }));
  });
  const page = await context.newPage();
  await signIn(page, demoAccounts.user.account, demoAccounts.user.password, '/user/info');
  await expect(page.getByText('Certification records')).toBeVisible();
  await expect(page.getByText('Recent activity')).toBeVisible();
  await page.goto('/user/setting?tab=certification');
  await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
  await page.goto('/user/setting?tab=security');
  await expect(page.getByRole('heading', { name: 'Signed-in devices' })).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
  await context.close();
});
