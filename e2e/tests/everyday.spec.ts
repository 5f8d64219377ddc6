import { expect, type Page, test } from '@playwright/test';
import { demoAccounts, signIn } from './support/auth';

// What people touch every day, checked in the shared components: tenant switch, forms, dates, tables,
// messages and sessions.

const userRows = (page: Page) => page.locator('.crud-page tr.arco-table-tr');
const sider = (page: Page) => page.locator('.app-sider');

async function openUsers(page: Page) {
  await sider(page).getByText('系统管理').click();
  await sider(page).getByText('用户管理').click();
  await expect(page).toHaveURL(/\/system\/user$/);
}

const HQ = { name: 'Atrium HQ', rows: /hq0\d{3}/ };
const ACME = { name: 'Acme Trading', rows: /acme0\d{3}/ };

/** The super admin comes back to the tenant they used last: switch to `name` when elsewhere. */
async function switchTenant(page: Page, name: string) {
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

test('a tenant switch never shows the previous tenant’s rows', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
  await switchTenant(page, HQ.name);
  await openUsers(page);
  await expect(userRows(page).filter({ hasText: HQ.rows }).first()).toBeVisible({ timeout: 30_000 });

  await switchTenant(page, ACME.name);
  // the switch lands on the first page of the new tenant; from there, back to the user list without a reload
  await expect(page).toHaveURL(/\/(staging|dashboard\/workplace)$/);
  if (!(await sider(page).getByText('用户管理').isVisible())) await sider(page).getByText('系统管理').click();
  await sider(page).getByText('用户管理').click();
  await expect(page).toHaveURL(/\/system\/user$/);
  // only Acme's users, never HQ's
  await expect(userRows(page).filter({ hasText: ACME.rows }).first()).toBeVisible({ timeout: 30_000 });
  await expect(userRows(page).filter({ hasText: HQ.rows })).toHaveCount(0);
  await switchTenant(page, HQ.name);
});

test('a drawer names its entity, and a corrected field loses its error at once', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/post');
  await page.getByRole('button', { name: /新建/ }).click();
  const drawer = page.locator('.arco-drawer').filter({ has: page.getByTestId('crud-save') });
  await expect(drawer.locator('.arco-drawer-header-title')).toHaveText('新建岗位');
  await drawer.getByTestId('crud-save').click();
  await expect(drawer.getByText('岗位编码不能为空')).toBeVisible();
  await expect(drawer.getByText('岗位名称不能为空')).toBeVisible();
  // typing a valid value clears that field's message, before any save; the other stays
  await drawer.getByPlaceholder('岗位编码').fill('e2e_fix');
  await expect(drawer.getByText('岗位编码不能为空')).toHaveCount(0);
  await expect(drawer.getByText('岗位名称不能为空')).toBeVisible();
  // still wrong: the message says the current reason
  await drawer.getByPlaceholder('岗位名称').fill('名'.repeat(101));
  await expect(drawer.getByText('岗位名称不能为空')).toHaveCount(0);
  await expect(drawer.getByText(/岗位名称最多 \d+ 个字符/)).toBeVisible();
  await drawer.getByPlaceholder('岗位名称').fill('E2E 修正');
  await expect(drawer.locator('.arco-form-message')).toHaveCount(0);
});

test('tables show dates as 2026-11-23 11:55 whatever the browser locale, with the actions visible at 1280 px', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/user');
  const first = userRows(page)
    .filter({ hasText: /(hq|acme)0\d{3}/ })
    .first();
  await expect(first).toBeVisible({ timeout: 30_000 });
  await expect(first).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  await expect(first).not.toContainText(/\d{1,2}\/\d{1,2}\/\d{4}/);
  // the row's actions sit inside the window, not scrolled off to the right
  for (const name of ['编辑', '删除']) {
    const box = await first.getByRole('button', { name }).boundingBox();
    expect(box && box.x + box.width <= 1280).toBe(true);
  }
  await context.close();
});

test('a user forced out by an administrator lands on the sign-in page and is told why', async ({ browser }) => {
  const userContext = await browser.newContext({ locale: 'zh-CN' });
  const userPage = await userContext.newPage();
  await signIn(userPage, demoAccounts.user.account, demoAccounts.user.password);
  expect(await userPage.evaluate(() => localStorage.getItem('tokenFlag'))).toBe('flag');

  const adminContext = await browser.newContext({ locale: 'zh-CN' });
  const admin = await adminContext.newPage();
  await signIn(admin, demoAccounts.admin.account, demoAccounts.admin.password);
  await switchTenant(admin, HQ.name);
  await admin.goto('/system/session');
  // every session of the demo user (other tests may have left some): force each out
  const rows = admin.locator('tr.arco-table-tr').filter({ has: admin.getByRole('cell', { name: 'user', exact: true }) });
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  for (let left = await rows.count(); left > 0; left--) {
    await rows.first().getByRole('button', { name: '强制下线' }).click();
    await admin.locator('.arco-popconfirm').getByRole('button', { name: '确定' }).click();
    await expect(rows).toHaveCount(left - 1);
  }

  await userPage.reload();
  await expect(userPage).toHaveURL(/\/login/);
  await expect(userPage.getByRole('alert').filter({ hasText: '您已被管理员下线' })).toBeVisible();
  await userContext.close();
  await adminContext.close();
});
