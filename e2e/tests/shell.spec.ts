import { expect, type Page, test } from '@playwright/test';
import { demoAccounts, signIn, signInThroughForm, storedToken } from './support/auth';

const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/screenshots/${name}.png` });
const sideMenu = (page: Page) => page.locator('.app-sider nav');

async function openSettings(page: Page) {
  await page
    .getByRole('button', { name: /页面配置|Page settings/ })
    .first()
    .click();
  const drawer = page.locator('.arco-drawer').filter({ hasText: /页面配置|Page settings/ });
  // the drawer takes the focus once it has slid in; from then on Escape closes it
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.arco-drawer')))).toBe(true);
  return drawer;
}

async function setSwitch(page: Page, id: string, on: boolean) {
  const control = page.locator(`#${id}`);
  if ((await control.getAttribute('aria-checked')) !== String(on)) await control.click();
  await expect(control).toHaveAttribute('aria-checked', String(on));
}

test.describe('sign-in screens', () => {
  test('login shows its fields, links and no captcha when captcha is off', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: '登录 Atrium' })).toBeVisible();
    await expect(page.getByLabel('账号', { exact: true })).toBeVisible();
    await expect(page.getByLabel('密码', { exact: true })).toBeVisible();
    await expect(page.getByLabel('验证码')).toHaveCount(0);
    await expect(page.getByText('记住账号')).toBeVisible();
    await expect(page.getByRole('link', { name: '忘记密码' })).toHaveAttribute('href', '/findPassword');
    await expect(page.getByRole('link', { name: '注册账号' })).toHaveAttribute('href', '/register');
    await shot(page, 'login-zh-CN');

    // required fields are checked before anything is sent
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    await expect(page.getByText('账号不能为空')).toBeVisible();
    await expect(page.getByLabel('账号', { exact: true })).toBeFocused();

    await page.getByLabel('账号', { exact: true }).fill('admin');
    await page.getByLabel('密码', { exact: true }).fill('wrong-password-1!');
    await page.getByLabel('密码', { exact: true }).press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: /错误|失败|锁定/ })).toBeVisible();
    expect(await storedToken(page)).toBeNull();
  });

  test('register and find-password screens are reachable from login', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: '注册账号' }).click();
    await expect(page.getByRole('heading', { name: '注册账号' })).toBeVisible();
    await page.getByRole('link', { name: /去登录/ }).click();
    await page.getByRole('link', { name: '忘记密码' }).click();
    await expect(page.getByRole('heading', { name: '找回密码' })).toBeVisible();
    await expect(page.getByRole('button', { name: '发送验证码' })).toBeVisible();
  });

  test('registering creates an account and tenant and signs in', async ({ page }) => {
    const suffix = Date.now().toString(36);
    await page.goto('/register');
    const field = (name: string) => page.getByRole('textbox', { name, exact: true });
    await field('账号').fill(`shell${suffix}`);
    await field('邮箱').fill(`shell${suffix}@example.com`);
    await field('组织名称').fill(`Shell Test ${suffix}`);
    await page.locator('input[type="password"]').nth(0).fill('Shell#Test-2026');
    await page.locator('input[type="password"]').nth(1).fill('Shell#Test-2026');
    await page.getByRole('button', { name: '注册' }).click();
    // creating a tenant and hashing a password: slow on a busy machine
    await expect(page.locator('#main-content')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: '用户菜单' })).toContainText(`Shell Test ${suffix}`);
  });

  test('sign-in works with the keyboard alone', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByLabel('账号', { exact: true })).toBeFocused();
    await page.keyboard.type(demoAccounts.user.account);
    await page.keyboard.press('Tab');
    await page.keyboard.type(demoAccounts.user.password);
    await page.keyboard.press('Enter');
    // password hashing is slow on a busy machine
    await expect(page.locator('#main-content')).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveURL(/\/staging$/);
  });
});

test.describe('signed in', () => {
  for (const [name, creds] of Object.entries(demoAccounts)) {
    test(`${name} signs in and sees their tenant`, async ({ page }) => {
      await signInThroughForm(page, creds.account, creds.password);
      await expect(page).toHaveURL(/\/staging$/);
      const tenant = name === 'acme' ? 'Acme Trading' : 'Atrium HQ';
      await expect(page.getByRole('button', { name: '用户菜单' })).toContainText(tenant);
      expect(await storedToken(page)).toBeTruthy();
      expect(await page.evaluate(() => localStorage.getItem('device'))).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    });
  }

  test('the redirect target and its query survive sign-in', async ({ page }) => {
    await page.goto('/system/user?pageNum=2');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fsystem%2Fuser&pageNum=2$/);
    await page.getByLabel('账号', { exact: true }).fill(demoAccounts.admin.account);
    await page.getByLabel('密码', { exact: true }).fill(demoAccounts.admin.password);
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    await expect(page).toHaveURL(/\/system\/user\?pageNum=2$/);
    await expect(page.locator('.app-breadcrumb')).toContainText('用户管理');
  });

  test('the menu follows the role: user sees no admin-only pages and cannot type their address', async ({ page }) => {
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    await expect(sideMenu(page)).toContainText('表单页');
    await expect(sideMenu(page)).toContainText('数据可视化');
    await page.goto('/dashboard/monitor');
    await expect(page).toHaveURL(/\/dashboard\/monitor$/);
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await signIn(page, demoAccounts.user.account, demoAccounts.user.password);
    const menu = sideMenu(page);
    await expect(menu).toContainText('系统管理');
    for (const adminOnly of ['表单页', '数据可视化', '详情页', '结果页']) await expect(menu).not.toContainText(adminOnly);
    await page.goto('/dashboard/monitor');
    await expect(page).toHaveURL(/\/staging$/);
    await expect(page.getByText('您没有访问该页面的权限')).toBeVisible();
    await page.goto('/form/step');
    await expect(page).toHaveURL(/\/staging$/);
  });

  test('detail pages light up their menu entry; result and exception pages say what the spec says', async ({ page }) => {
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    await page.goto('/profile/basic');
    await expect(page.getByText(/参数审批/).first()).toBeVisible();
    await expect(page.getByText('即将上线')).toHaveCount(0);
    await expect(page.locator('.app-sider .arco-menu-item.arco-menu-selected')).toContainText('基础详情页');
    await page.goto('/result/error');
    await expect(page.getByText('当前域名未备案')).toBeVisible();
    await page.goto('/exception/403');
    await expect(page.getByText('对不起，您没有访问该资源的权限')).toBeVisible();
  });

  test('tab bar: opens tabs, keeps a typed value across switches, closes and resets', async ({ page }) => {
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    const drawer = await openSettings(page);
    await setSwitch(page, 'setting-tabBar', true);
    await expect(drawer).toBeVisible();
    await page.keyboard.press('Escape');
    const tabs = page.getByRole('tablist', { name: '已打开的页面' });
    await expect(tabs.getByRole('tab')).toHaveText(['首页']);

    const filter = page.getByRole('textbox', { name: '查找页面' });
    await filter.fill('用户');
    await page.locator('.app-sider').getByText('仪表盘').click();
    await page.locator('.app-sider').getByText('工作台', { exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);
    await page.locator('.app-sider').getByText('系统管理').click();
    await page.locator('.app-sider').getByText('角色管理').click();
    await expect(tabs.getByRole('tab')).toHaveText(['首页', '工作台', '角色管理']);
    await shot(page, 'workplace-tab-bar-zh-CN');

    await tabs.getByRole('tab', { name: '首页' }).click();
    await expect(page).toHaveURL(/\/staging$/);
    await expect(page.getByRole('textbox', { name: '查找页面' })).toHaveValue('用户');
    await tabs.getByRole('tab', { name: '工作台' }).click();
    await page.getByRole('button', { name: '关闭 角色管理' }).click();
    await expect(tabs.getByRole('tab')).toHaveText(['首页', '工作台']);
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);

    // right-click menu: close others, then the actions dropdown: close all
    await page.locator('.app-sider').getByText('用户管理').click();
    // each menu is named for what it acts on, so the test finds the one it opened, on any machine
    await tabs.getByRole('tab', { name: '用户管理' }).click({ button: 'right' });
    const contextMenu = page.getByRole('menu', { name: '用户管理 的操作' });
    // all six actions fit: none is cut off by the dropdown's height
    await expect(contextMenu.getByRole('menuitem')).toHaveCount(6);
    const last = await contextMenu.getByRole('menuitem').last().boundingBox();
    const box = await contextMenu.boundingBox();
    expect(last && box && last.y + last.height <= box.y + box.height).toBe(true);
    await contextMenu.getByRole('menuitem', { name: '关闭其它标签页' }).click();
    await expect(tabs.getByRole('tab')).toHaveText(['首页', '用户管理']);
    // a menu closed by its action leaves at once (no exit animation): never two tab menus on screen
    await expect(page.locator('.tab-bar-menu')).toHaveCount(0);
    await page.getByRole('button', { name: '页签操作' }).click();
    const actionsMenu = page.getByRole('menu', { name: '页签操作' });
    await expect(actionsMenu).toBeVisible();
    await expect(page.locator('.tab-bar-menu')).toHaveCount(1);
    await actionsMenu.getByRole('menuitem', { name: '关闭全部标签页' }).click();
    await expect(tabs.getByRole('tab')).toHaveText(['首页']);
    await expect(page).toHaveURL(/\/staging$/);
    // closed pages are unmounted; Staging cannot be closed and kept its input
    await expect(page.locator('.page-pane')).toHaveCount(1);
    await expect(page.getByRole('button', { name: /关闭 首页/ })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: '查找页面' })).toHaveValue('用户');
    // reload mounts it afresh
    await tabs.getByRole('tab', { name: '首页' }).click({ button: 'right' });
    await page.getByRole('menu', { name: '首页 的操作' }).getByRole('menuitem', { name: '重新加载' }).click();
    await expect(page.getByRole('textbox', { name: '查找页面' })).toHaveValue('');
  });

  test('language switch changes the menu, shows a toast and persists across reload', async ({ page }) => {
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    await expect(sideMenu(page)).toContainText('仪表盘');
    await page.getByRole('button', { name: '切换语言' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByText('Language switched to English')).toBeVisible();
    await expect(sideMenu(page)).toContainText('Dashboard');
    await expect(page.getByRole('button', { name: 'Change language' })).toBeVisible();
    await page.reload();
    await expect(sideMenu(page)).toContainText('Dashboard');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    await page.goto('/dashboard/workplace');
    await expect(page.getByText(/Good (morning|afternoon|evening)/)).toBeVisible();
    await shot(page, 'workplace-en-US');
    const drawer = await openSettings(page);
    await expect(drawer).toContainText('Menu from server');
    await shot(page, 'settings-drawer-en-US');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Atrium' })).toBeVisible();
    // leaving must not make the signed-out page ask about an expired sign-in
    await page.waitForTimeout(500);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await shot(page, 'login-en-US');
  });

  test('dark mode sets the body attribute and stays on', async ({ page }) => {
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    await page.getByRole('button', { name: '切换为暗色主题' }).click();
    await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
    await page.goto('/dashboard/workplace');
    await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
    await page.waitForTimeout(300);
    await shot(page, 'workplace-dark-zh-CN');
    await page.getByRole('button', { name: '切换为亮色主题' }).click();
    await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
  });

  test('settings persist, copy as JSON, and the floating button appears without the navbar', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    await openSettings(page);
    await setSwitch(page, 'setting-footer', true);
    await shot(page, 'settings-drawer-zh-CN');
    await setSwitch(page, 'setting-colorWeak', true);
    await expect(page.locator('body')).toHaveCSS('filter', 'invert(0.8)');
    await page.getByRole('button', { name: '复制配置' }).click();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
    expect(copied).toMatchObject({
      footer: true,
      colorWeak: true,
      themeColor: '#165DFF',
      menuWidth: 170,
      tabBar: false,
      menuFromServer: true,
    });
    await setSwitch(page, 'setting-colorWeak', false);
    await setSwitch(page, 'setting-topMenu', true);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('navigation', { name: '顶部菜单' })).toContainText('系统管理');
    await shot(page, 'top-menu-zh-CN');
    await page.getByRole('button', { name: '页面配置' }).click();
    await setSwitch(page, 'setting-topMenu', false);
    await setSwitch(page, 'setting-navbar', false);
    await page.keyboard.press('Escape');
    await page.reload();
    await expect(page.locator('.app-footer')).toBeVisible();
    await expect(page.locator('.app-navbar')).toHaveCount(0);
    await page.getByRole('button', { name: '页面配置' }).click();
    await setSwitch(page, 'setting-navbar', true);
    await expect(page.locator('.app-navbar')).toBeVisible();
  });

  test('an invalid sign-in from the server: with a token, log out; without one, the 登录失效 dialog', async ({ page, request }) => {
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    // the session ends elsewhere (the token is still stored here): the next call logs out and reloads
    const token = await storedToken(page);
    const ended = await request.post('/api/system/user/logout', { headers: { Authorization: `Bearer ${token}` }, data: {} });
    expect(ended.ok()).toBeTruthy();
    // ask the server something (the live-update connection, dropped with the session, may ask first)
    const quietly = { timeout: 3000 };
    await page
      .getByRole('button', { name: '用户菜单' })
      .click(quietly)
      .catch(() => undefined);
    await page
      .getByRole('menuitem', { name: '切换租户' })
      .click(quietly)
      .catch(() => undefined);
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await storedToken(page)).toBeNull();

    // signed out in another tab (no token here any more): ask before leaving the page
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    await page.evaluate(() => localStorage.removeItem('token'));
    const dialog = page.getByRole('dialog').filter({ hasText: '登录失效' });
    // open the tenant list, which asks the server (a background refresh may ask first: then the dialog is up)
    await page
      .getByRole('button', { name: '用户菜单' })
      .click(quietly)
      .catch(() => undefined);
    await page
      .getByRole('menuitem', { name: '切换租户' })
      .click(quietly)
      .catch(() => undefined);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: '重新登录' })).toBeVisible();
    await dialog.getByRole('button', { name: '停留在此页' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/staging$/);
    await page.keyboard.press('Escape');
    // the next call without a session asks again: the message list has not been fetched yet
    await page
      .getByRole('button', { name: /消息通知/ })
      .click(quietly)
      .catch(() => undefined);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: '重新登录' }).click();
    await expect(page).toHaveURL(/\/login/);
  });

  test('switching tenant swaps the token and reloads user info and menu', async ({ page }) => {
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    const before = await storedToken(page);
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByRole('menuitem', { name: '切换租户' }).click();
    const modal = page.getByRole('dialog').filter({ hasText: '切换租户' });
    await modal.getByRole('button', { name: '切换 Acme Trading' }).click();
    await expect(page.getByText('已切换到 Acme Trading')).toBeVisible();
    await expect(page.getByRole('button', { name: '用户菜单' })).toContainText('Acme Trading');
    expect(await storedToken(page)).not.toBe(before);
  });

  test('a user with one role sees switching roles disabled with the reason and no tenant switch; /redirect/:path forwards without becoming a tab', async ({
    page,
  }) => {
    await signIn(page, demoAccounts.user.account, demoAccounts.user.password);
    await page.getByRole('button', { name: '用户菜单' }).click();
    const menu = page.locator('.user-menu');
    await expect(menu.getByText('您只有一个角色，无可切换')).toBeVisible();
    await expect(page.getByRole('menuitem', { name: /切换角色/ })).toHaveClass(/disabled/);
    // one tenant: nowhere to switch to
    await expect(menu.getByText('切换租户')).toHaveCount(0);
    await menu.getByText('切换角色').click();
    await expect(page.getByText(/角色已切换/)).toHaveCount(0);
    await page.keyboard.press('Escape');
    await openSettings(page);
    await setSwitch(page, 'setting-tabBar', true);
    await page.keyboard.press('Escape');
    await page.evaluate(() => window.history.pushState({}, '', '/redirect/%2Flist%2Fcard'));
    await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
    await expect(page).toHaveURL(/\/list\/card$/);
    await expect(page.getByRole('tablist', { name: '已打开的页面' }).getByRole('tab')).toHaveText(['首页', '卡片列表']);
  });

  test('switching roles moves among the roles held, and the menu and the server follow', async ({ page, request }) => {
    // as the administrator, over the API: an account holding both demo roles of the tenant
    const login = await request.post('/api/system/user/login', {
      data: { account: demoAccounts.admin.account, password: demoAccounts.admin.password },
    });
    const headers = { authorization: `Bearer ${(await login.json()).data.token}` };
    const roles = (await (await request.get('/api/system/role?pageSize=50', { headers })).json()).data.list as {
      id: number;
      code: string;
    }[];
    const roleIds = ['admin', 'user'].map((code) => roles.find((r) => r.code === code)?.id);
    const account = `tworoles${Date.now().toString(36)}`;
    const password = 'Kx9!two-roles-user';
    const created = await request.post('/api/system/user/info', {
      headers,
      data: { accountId: account, name: 'Two roles', password, roleIds },
    });
    expect(created.status(), await created.text()).toBe(200);

    await signIn(page, account, password);
    const menu = page.locator('.user-menu');
    const pick = async (name: string) => {
      await page.getByRole('button', { name: '用户菜单' }).click();
      await menu.getByText('切换角色').hover();
      await page.getByRole('menuitem', { name }).click();
    };
    await pick('普通用户');
    await expect(page.getByText('角色已切换为 普通用户')).toBeVisible();
    // the ordinary role reads no release project list: after a reload (the role is the session's, on the
    // server) the page is not in its menu, and the guard sends the user elsewhere
    await page.goto('/release/project');
    await expect(page).not.toHaveURL(/\/release\/project$/);
    await expect(page.locator('#main-content')).toBeVisible();
    // the server answers as that role too
    const token = await storedToken(page);
    const denied = await page.request.get('/api/release/project', { headers: { authorization: `Bearer ${token}` } });
    expect(denied.status()).toBe(403);

    await pick('全部角色');
    await expect(page.getByText('已恢复全部角色')).toBeVisible();
    const allowed = await page.request.get('/api/release/project', { headers: { authorization: `Bearer ${token}` } });
    expect(allowed.status()).toBe(200);
  });

  test('logout clears the token, the user and the menu', async ({ page }) => {
    await signIn(page, demoAccounts.user.account, demoAccounts.user.password);
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedToken(page)).toBeNull();
    await page.goto('/staging');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fstaging$/);
  });

  test('message box: unread counts per tab, reading and marking all read', async ({ page, request }) => {
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    const token = await storedToken(page);
    const sent = await request.post('/api/system/notice', {
      headers: { Authorization: `Bearer ${token}` },
      data: { title: 'Fire drill at 15:00', content: 'Everyone meets in the courtyard.', type: 'notice', scope: 'tenant' },
    });
    expect(sent.ok()).toBeTruthy();
    await page.reload();
    const bell = page.getByRole('button', { name: /消息通知/ });
    await expect(bell).toHaveAccessibleName(/未读 \d+/);
    await bell.click();
    const panel = page.getByRole('dialog', { name: '消息通知' });
    await panel.getByRole('tab', { name: /通知 \(\d+\)/ }).click();
    await expect(panel.getByText('Fire drill at 15:00')).toBeVisible();
    await panel.getByRole('button', { name: '全部已读' }).click();
    await expect(panel.getByRole('tab', { name: /通知 \(\d+\)/ })).toHaveCount(0);
    await expect(bell).toHaveAccessibleName('消息通知');
  });

  test('a page whose code fails to download offers a retry instead of a white screen', async ({ page }) => {
    await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
    await page.route(/\/assets\/WorkplacePage-[^/]+\.js$/, (route) => route.abort());
    await page.locator('.app-sider').getByText('仪表盘').click();
    await page.locator('.app-sider').getByText('工作台', { exact: true }).click();
    await expect(page.getByText('页面加载失败')).toBeVisible();
    await expect(page.getByRole('button', { name: '重试' })).toBeVisible();
    // the layout is still there around it
    await expect(page.getByRole('button', { name: '用户菜单' })).toBeVisible();
  });

  test('under 992 px the side menu is a drawer opened from the navbar', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await signIn(page, demoAccounts.user.account, demoAccounts.user.password);
    await expect(page.locator('.app-sider')).toHaveCount(0);
    await page.getByRole('button', { name: '打开菜单' }).click();
    const drawer = page.locator('.menu-drawer');
    await drawer.getByText('系统管理').click();
    await drawer.getByText('用户管理').click();
    await expect(page).toHaveURL(/\/system\/user$/);
    await expect(drawer.getByText('用户管理')).not.toBeInViewport();
    await expect(page.locator('.app-breadcrumb')).toContainText('用户管理');
    await shot(page, 'narrow-zh-CN');
  });

  test('the side menu is usable with the keyboard', async ({ page }) => {
    await signIn(page, demoAccounts.user.account, demoAccounts.user.password);
    const section = page.locator('.app-sider .arco-menu-inline-header', { hasText: '列表页' });
    await section.focus();
    await page.keyboard.press('Enter');
    const item = page.getByRole('menuitem', { name: '查询表格' });
    await item.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/list\/search-table$/);
  });
});
