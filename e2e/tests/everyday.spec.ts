import { expect, type Page, test } from '@playwright/test';
import { demoAccounts, signIn, switchTenant } from './support/auth';

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

for (const lang of ['zh-CN', 'en-US'] as const) {
  test(`tables show dates as 2026-11-23 11:55 whatever the browser locale, with the actions visible at 1280 px (${lang})`, async ({
    browser,
  }) => {
    // an English browser either way; the app's own language is the one under test
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    await context.addInitScript((l) => {
      if (!localStorage.getItem('arco-lang')) localStorage.setItem('arco-lang', l);
    }, lang);
    const page = await context.newPage();
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/user');
    const first = userRows(page)
      .filter({ hasText: /(hq|acme)0\d{3}/ })
      .first();
    await expect(first).toBeVisible({ timeout: 30_000 });
    await expect(first).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await expect(first).not.toContainText(/\d{1,2}\/\d{1,2}\/\d{4}/);
    // the row's actions sit inside the window, not scrolled off to the right
    const names = lang === 'zh-CN' ? ['编辑', '删除'] : ['Edit', 'Delete'];
    for (const name of names) {
      const box = await first.getByRole('button', { name, exact: true }).boundingBox();
      expect(box && box.x + box.width <= 1280).toBe(true);
    }
    // the table does not scroll sideways: no column sits hidden under the pinned actions
    const body = page.locator('.crud-page .arco-table-content-inner').first();
    expect(await body.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    await context.close();
  });
}

test('a user created with a generated password sees it once, can copy it, and signs in with it', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
  await switchTenant(page, HQ.name);
  await page.goto('/system/user');
  const account = `e2e${Date.now().toString(36)}`;
  await page.getByRole('button', { name: /新建/ }).click();
  const drawer = page.locator('.arco-drawer').filter({ has: page.getByTestId('crud-save') });
  await expect(drawer.locator('.arco-drawer-header-title')).toHaveText('新建用户');
  await drawer.getByPlaceholder('用户编号').fill(account);
  await drawer.getByPlaceholder('姓名').fill('生成密码');
  // the password field stays empty: one is generated
  await expect(drawer.getByPlaceholder('初始密码（留空则自动生成）')).toHaveValue('');
  await drawer.getByTestId('crud-save').click();

  const shown = page.getByTestId('initial-password');
  await expect(page.getByRole('dialog').filter({ has: shown })).toContainText(`已创建用户 ${account}`, { timeout: 30_000 });
  const password = (await shown.locator('code').textContent()) ?? '';
  expect(password).toMatch(/^\S{16}$/);
  await shown
    .getByRole('button', { name: /复制|Copy/ })
    .or(shown.locator('.arco-typography-operation-copy'))
    .first()
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
  await page.getByRole('button', { name: '我已复制' }).click();
  await expect(shown).toHaveCount(0);
  // the operation log names the object as a person reads it, not by its id
  await page.goto('/system/operlog');
  await expect(
    page
      .locator('tr.arco-table-tr')
      .filter({ hasText: `用户 ${account} 生成密码` })
      .first(),
  ).toBeVisible({
    timeout: 30_000,
  });
  await context.close();

  // shown once: the list does not carry it, and a fresh browser signs in with it
  const fresh = await browser.newContext({ locale: 'zh-CN' });
  const userPage = await fresh.newPage();
  await signIn(userPage, account, password);
  await expect(userPage.getByRole('button', { name: '用户菜单' })).toContainText(HQ.name);
  await fresh.close();
});

test('top-menu mode: the first level sits on top and the side menu shows only the chosen section', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
  await page
    .getByRole('button', { name: /页面配置/ })
    .first()
    .click();
  const control = page.locator('#setting-topMenu');
  await expect(control).toHaveAttribute('aria-checked', 'false');
  await control.click();
  await expect(control).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');

  const top = page.getByRole('navigation', { name: '顶部菜单' });
  const side = page.locator('.app-sider nav');
  await top.getByRole('menuitem', { name: '系统管理' }).click();
  await expect(page).toHaveURL(/\/system\//);
  await expect(side).toContainText('用户管理');
  await expect(side).toContainText('部门管理');
  // only that section: neither its own label nor another section's pages
  await expect(side).not.toContainText('系统管理');
  await expect(side).not.toContainText('工作台');
  await expect(top.getByRole('menuitem', { name: '系统管理' })).toHaveClass(/arco-menu-selected/);
  // the top level carries no second level
  await expect(top).not.toContainText('用户管理');

  await top.getByRole('menuitem', { name: '个人中心' }).click();
  await expect(page).toHaveURL(/\/user\//);
  await expect(side).toContainText('用户中心');
  await expect(side).toContainText('用户设置');
  await expect(side).not.toContainText('用户管理');

  // back to the side menu alone: the whole tree again
  await page.getByRole('button', { name: '页面配置' }).click();
  await control.click();
  await expect(control).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Escape');
  await expect(top).toHaveCount(0);
  await expect(side).toContainText('系统管理');
  await expect(side).toContainText('仪表盘');
});

test('a user forced out by an administrator lands on the sign-in page and is told why', async ({ browser }) => {
  const userContext = await browser.newContext({ locale: 'zh-CN' });
  const userPage = await userContext.newPage();
  await signIn(userPage, demoAccounts.user.account, demoAccounts.user.password);
  expect(await userPage.evaluate(() => localStorage.getItem('tokenFlag'))).toBe('flag');
  // the user's tab is closed meanwhile: a background request of an open tab would reach the sign-in page first
  // and use up the one-time reason before the visit below
  await userPage.goto('about:blank');

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
    await admin.locator('.arco-popconfirm:visible').getByRole('button', { name: '确定' }).click();
    await expect(rows).toHaveCount(left - 1);
    // the confirmation just used fades out before the next one opens
    await expect(admin.locator('.arco-popconfirm:visible')).toHaveCount(0);
  }

  // the user's sign-in is in the login log, found by account and result
  await admin.goto('/system/loginlog');
  const search = admin.locator('.arco-form').first();
  await search.locator('.arco-form-item').filter({ hasText: '账号' }).first().locator('input').fill(demoAccounts.user.account);
  await search.locator('.arco-form-item').filter({ hasText: '结果' }).first().locator('.arco-select-view').click();
  await admin.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: '登录成功' }).first().click();
  await search.getByRole('button', { name: '查询' }).click();
  const entries = admin
    .locator('tr.arco-table-tr')
    .filter({ has: admin.getByRole('cell', { name: demoAccounts.user.account, exact: true }) });
  await expect(entries.first()).toBeVisible({ timeout: 30_000 });
  await expect(admin.locator('tbody tr.arco-table-tr').filter({ hasNotText: '登录成功' })).toHaveCount(0);

  await userPage.goto('/');
  await expect(userPage).toHaveURL(/\/login/);
  await expect(userPage.getByRole('alert').filter({ hasText: '您已被管理员下线' })).toBeVisible();
  await userContext.close();
  await adminContext.close();
});

test('the menu tree indents every child row and cuts none; the dark message box keeps its tab border inside', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    if (!localStorage.getItem('atrium-settings'))
      localStorage.setItem('atrium-settings', JSON.stringify({ state: { theme: 'dark' }, version: 0 }));
  });
  const page = await context.newPage();
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/menu');
  const value = (text: string) =>
    page.locator('tr.arco-table-tr').filter({ hasText: text }).first().locator('td').first().locator('.arco-table-cell-wrap-value');
  // two pages of the same section start at the same indent, right of their section
  const section = await value('数据可视化 (visualization)').boundingBox();
  const first = await value('分析页 (DataAnalysis)').boundingBox();
  const second = await value('多维数据分析 (MultiDAnalysis)').boundingBox();
  expect(first && second && section).toBeTruthy();
  expect(second?.x).toBe(first?.x);
  expect(second!.x).toBeGreaterThan(section!.x);
  // on one line, whole
  expect(second!.height).toBe(first!.height);
  expect(await value('多维数据分析 (MultiDAnalysis)').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  await page
    .getByRole('button', { name: /^消息通知/ })
    .first()
    .click();
  const popover = page.locator('.message-popover');
  await expect(popover.getByRole('tab').first()).toBeVisible();
  // measured once its opening zoom has settled: mid-animation the box is scaled around its anchor
  const box = async () => JSON.stringify(await popover.boundingBox());
  await expect
    .poll(async () => {
      const before = await box();
      await page.waitForTimeout(150);
      return before === (await box());
    })
    .toBe(true);
  const outer = await popover.boundingBox();
  const nav = await popover.locator('.arco-tabs-header-nav').boundingBox();
  expect(nav!.x + nav!.width).toBeLessThanOrEqual(outer!.x + outer!.width);
  await context.close();
});
