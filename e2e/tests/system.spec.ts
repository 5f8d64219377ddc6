import { expect, type Locator, type Page, test } from '@playwright/test';
import { demoAccounts, signIn, storedToken } from './support/auth';
import { expectNoToast } from './support/toasts';

const PASSWORD = 'Qw7!harbour-lantern';
const stamp = Date.now().toString(36).slice(-5);
const names = {
  parent: `E2E总部${stamp}`,
  child: `E2E研发${stamp}`,
  post: `E2E岗位${stamp}`,
  postCode: `e2e_post_${stamp}`,
  role: `E2E角色${stamp}`,
  roleCode: `e2e_role_${stamp}`,
  account: `e2e.${stamp}`,
};

const drawer = (page: Page) => page.locator('.arco-drawer').filter({ has: page.getByTestId('crud-save') });
const row = (page: Page, text: string) => page.locator('tr.arco-table-tr').filter({ hasText: text });

async function openCreate(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('button', { name: /新建/ }).click();
  await expect(drawer(page)).toBeVisible();
  return drawer(page);
}

async function save(page: Page) {
  await drawer(page).getByTestId('crud-save').click();
  await expect(drawer(page)).toBeHidden();
}

async function pickTree(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('textbox', { name: label, exact: true }).click();
  await page.keyboard.type(option);
  await page.getByRole('treeitem', { name: option, exact: true }).click();
}

async function pickMany(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

test('as admin: build a department tree, a post, a role with a menu grant and a user; the user sees exactly that menu; disabling the parent disables the child', async ({
  page,
}) => {
  // one long story through five pages and three sign-ins
  test.setTimeout(240_000);
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);

  // a department tree
  let form = await openCreate(page, '/system/dept');
  await form.getByPlaceholder('部门名称').fill(names.parent);
  await save(page);
  form = await openCreate(page, '/system/dept');
  await pickTree(page, form, '上级部门', names.parent);
  await form.getByPlaceholder('部门名称').fill(names.child);
  await save(page);
  await expect(row(page, names.child)).toBeVisible();

  // the drawer validates with the contract before anything is sent
  form = await openCreate(page, '/system/dept');
  await form.getByPlaceholder('部门名称').fill('名'.repeat(101));
  await form.getByTestId('crud-save').click();
  await expect(form.getByText('部门名称最多 100 个字符')).toBeVisible();
  // what was typed is not thrown away unasked: Escape asks, keep editing keeps it, discard closes
  await page.keyboard.press('Escape');
  const discard = page.locator('.arco-modal:visible').filter({ hasText: '放弃未保存的修改？' });
  await discard.getByRole('button', { name: '继续编辑' }).click();
  await expect(form.getByPlaceholder('部门名称')).toHaveValue('名'.repeat(101));
  await form.getByRole('button', { name: '取消' }).click();
  await discard.getByRole('button', { name: /放\s*弃/ }).click();
  await expect(form).toBeHidden();
  // an untouched drawer closes at once
  form = await openCreate(page, '/system/dept');
  await form.getByRole('button', { name: '取消' }).click();
  await expect(form).toBeHidden();
  await expect(discard).toHaveCount(0);

  // a post
  form = await openCreate(page, '/system/post');
  await form.getByPlaceholder('岗位编码').fill(names.postCode);
  await form.getByPlaceholder('岗位名称').fill(names.post);
  await save(page);
  await expect(row(page, names.post)).toBeVisible();

  // a role granted the post page only
  form = await openCreate(page, '/system/role');
  await form.getByPlaceholder('角色名称').fill(names.role);
  await form.getByPlaceholder('角色编码').fill(names.roleCode);
  const grant = form.getByTestId('menu-grant');
  await grant
    .getByRole('treeitem', { name: /岗位管理 · system:post:list/ })
    .getByRole('checkbox')
    .locator('..')
    .click();
  await save(page);
  await expect(row(page, names.role)).toBeVisible();

  // a user in the child department with that post and role
  form = await openCreate(page, '/system/user');
  await form.getByPlaceholder('用户编号').fill(names.account);
  await form.getByPlaceholder('初始密码').fill(PASSWORD);
  await form.getByPlaceholder('姓名').fill('端到端');
  await pickTree(page, form, '部门', names.child);
  await pickMany(page, form, '岗位', names.post);
  await pickMany(page, form, '角色', names.role);
  await save(page);
  await page.getByPlaceholder('用户编号').fill(names.account);
  await page.getByRole('button', { name: /查询/ }).click();
  await expect(row(page, names.account)).toContainText(names.child);

  // that user sees the post page and no other system page
  await page.evaluate(() => localStorage.removeItem('token'));
  await signIn(page, names.account, PASSWORD);
  const menu = page.locator('.app-sider nav');
  await expect(menu.getByText('岗位管理')).toHaveCount(1);
  // the section may open by itself on sign-in
  if (!(await menu.getByText('岗位管理').isVisible())) await menu.getByText('系统管理').click();
  await expect(menu.getByText('岗位管理')).toBeVisible();
  for (const hidden of ['用户管理', '角色管理', '部门管理', '菜单管理', '租户管理']) await expect(menu.getByText(hidden)).toHaveCount(0);
  await menu.getByText('岗位管理').click();
  await expect(row(page, names.post)).toBeVisible();
  // granted list and buttons: create is there, the system user page is not reachable through the menu
  await expect(page.getByRole('button', { name: /新建/ })).toBeVisible();

  // back as admin: disabling the parent disables the child
  await page.evaluate(() => localStorage.removeItem('token'));
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
  await page.goto('/system/dept');
  await row(page, names.parent).locator('.arco-switch').click();
  // the confirmation says the sub-departments follow
  await expect(page.locator('.arco-popconfirm:visible')).toContainText('它的所有下级部门也将停用');
  await page
    .locator('.arco-popconfirm:visible')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(row(page, names.parent).locator('.arco-switch')).toHaveAttribute('aria-checked', 'false');
  await expect(row(page, names.child).locator('.arco-switch')).toHaveAttribute('aria-checked', 'false');
  // the first confirmation has faded out before the next opens (both are in the page meanwhile)
  await expect(page.locator('.arco-popconfirm:visible')).toHaveCount(0);
  // and enabling the child enables the parent again
  await row(page, names.child).locator('.arco-switch').click();
  await page
    .locator('.arco-popconfirm:visible')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(row(page, names.parent).locator('.arco-switch')).toHaveAttribute('aria-checked', 'true');
  // a parent cannot be deleted while it has a sub-department: its delete says why instead of confirming
  const parentDelete = row(page, names.parent).getByRole('button', { name: '删除' });
  await expect(parentDelete).toBeDisabled();
  await expect(row(page, names.child).getByRole('button', { name: '删除' })).toBeEnabled();
});

test('a reader’s greyed status switch says why on hover, and the list has no empty actions column', async ({ page }) => {
  await signIn(page, demoAccounts.user.account, demoAccounts.user.password, '/system/post');
  const main = page.locator('#main-content');
  const greyed = main.locator('.disabled-reason').first();
  await expect(greyed.locator('.arco-switch')).toBeDisabled();
  await greyed.hover();
  await expect(page.locator('.arco-tooltip-content').filter({ hasText: '您的角色没有修改状态的权限' })).toBeVisible();
  await expect(main.locator('.arco-table-th').filter({ hasText: '操作' })).toHaveCount(0);
});

test('the user list pages, sorts and shows its empty state; the detail page opens from a row', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
  await page.goto('/system/user');
  await expect(page.getByText(/共 \d+ 条/)).toBeVisible();
  await page.getByPlaceholder('用户编号').fill('no-such-user-xyz');
  await page.getByRole('button', { name: /查询/ }).click();
  await expect(page.getByText('暂无数据')).toBeVisible();
  await page.getByRole('button', { name: /重置/ }).click();
  await expect(row(page, 'hq0001').or(page.locator('tr.arco-table-tr').nth(1))).toBeVisible();
  await page.locator('tr.arco-table-tr').nth(1).getByRole('button', { name: '详情' }).click();
  await expect(page).toHaveURL(/\/system\/user\/detail\/\d+/);
  await expect(page.getByText('用户类型')).toBeVisible();
});

test('a row action under 更多 closes the menu and keeps its dialog; a custom data scope asks for a department', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
  await page.goto('/system/user');
  const more = page
    .locator('tr.arco-table-tr')
    .filter({ has: page.getByRole('button', { name: '更多' }) })
    .first();
  await more.getByRole('button', { name: '更多' }).click();
  const menu = page.locator('.crud-more-actions:visible');
  await expect(menu).toHaveCount(1);
  await menu.getByRole('button', { name: '重置密码' }).click();
  const dialog = page.locator('.arco-modal:visible');
  await expect(dialog).toHaveCount(1);
  // the menu no longer lies over the rows below, during the dialog or after it
  await expect(menu).toHaveCount(0);
  // the dialog states the policy, and a weak password gets the rule it breaks
  await expect(dialog).toContainText('至少 10 位，包含字母、数字和特殊字符');
  const password = dialog.locator('input[type=password]');
  for (const [typed, says] of [
    ['abc', '密码至少 10 位'],
    ['abcdefghij12', '密码需同时包含字母、数字和特殊字符'],
  ] as const) {
    await password.fill(typed);
    await dialog.getByRole('button', { name: '确定' }).click();
    await expect(dialog.locator('.arco-form-message')).toHaveText(says);
  }
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(menu).toHaveCount(0);

  const form = await openCreate(page, '/system/role');
  await form.getByPlaceholder('角色名称').fill(`E2E范围${stamp}`);
  await form.getByPlaceholder('角色编码').fill(`e2e_scope_${stamp}`);
  await form.locator('.arco-form-item').filter({ hasText: '数据范围' }).locator('.arco-select').click();
  await page.getByRole('option', { name: '自定义部门', exact: true }).click();
  await drawer(page).getByTestId('crud-save').click();
  await expect(form).toContainText('自定义数据权限须至少选择一个部门');
  await expect(form).toBeVisible();
});

test('a department or menu tree whose load fails says so in place, without a toast, and loads on retry', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
  for (const [path, url, first] of [
    ['/system/dept', /\/api\/system\/dept\/tree/, '总部'],
    ['/system/menu', /\/api\/system\/menu\/tree/, '系统管理'],
  ] as const) {
    // the connection drops: the server never answers
    await page.route(url, (route) => route.abort());
    await page.goto(path);
    await expect(page.getByText('数据加载失败')).toBeVisible();
    await expectNoToast(page);
    await page.unroute(url);
    await page.getByRole('button', { name: '重试' }).click();
    await expect(row(page, first).first()).toBeVisible();
    await expect(page.getByText('数据加载失败')).toHaveCount(0);
  }
});

test('the menus table shows each menu’s order beside its type in English, not under the pinned actions', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('arco-lang', 'en-US'));
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/menu');
  const header = (name: string) => page.locator('th').filter({ hasText: new RegExp(`^${name}$`) });
  for (const name of ['Type', 'Order', 'Actions']) await expect(header(name)).toBeVisible();
  // measured again until the table has settled: a busy browser may still be sizing the columns after the
  // headers show (the pinned actions column is placed once the rows are in)
  await expect(async () => {
    const [type, order, actions] = await Promise.all(['Type', 'Order', 'Actions'].map((name) => header(name).boundingBox()));
    expect(type && order && actions).toBeTruthy();
    expect(order!.x + order!.width).toBeLessThan(actions!.x);
    expect(order!.x).toBeGreaterThan(type!.x);
  }).toPass({ timeout: 10_000 });
});

test('a search the server would refuse is named under its field and not sent; the list and its form stay', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/role');
  const search = page.locator('.crud-search');
  await expect(row(page, '普通用户').first()).toBeVisible();
  let asked = 0;
  page.on('request', (request) => {
    if (/\/api\/system\/role\?/.test(request.url())) asked++;
  });
  await search.getByPlaceholder('角色名称').fill('Regional sales manager (East)');
  await search.getByRole('button', { name: '查询' }).click();
  await expect(search.getByText('角色名称最多 20 个字符')).toBeVisible();
  await expect(row(page, '普通用户').first()).toBeVisible();
  expect(asked).toBe(0);
  // corrected, it searches; reset clears the message too
  await search.getByPlaceholder('角色名称').fill('普通');
  await search.getByRole('button', { name: '查询' }).click();
  await expect(search.getByText('角色名称最多 20 个字符')).toHaveCount(0);
  await expect.poll(() => asked).toBe(1);

  // a first load that fails keeps the search form and toolbar above the failure
  await page.route(/\/api\/system\/post\?/, (route) => route.abort());
  await page.goto('/system/post');
  await expect(page.getByText('数据加载失败')).toBeVisible();
  await expect(page.locator('.crud-search')).toBeVisible();
  await expect(page.getByRole('button', { name: /新建/ })).toBeVisible();
});

test('a batch delete that is partly refused deletes the rest, says so, and keeps only the refused row selected', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/user');
  const token = await storedToken(page);
  const account = `e2e.del.${stamp}`;
  const created = await page.request.post('/api/system/user/info', {
    data: { accountId: account, name: 'E2E删除', password: PASSWORD },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(created.status()).toBe(200);
  await page.reload();
  // the new user and the signed-in admin, who may not delete themselves
  for (const who of [account, demoAccounts.admin.account]) {
    await row(page, who).first().locator('.arco-checkbox').click();
  }
  const batch = page.getByRole('button', { name: /批量删除/ });
  await expect(batch).toContainText('(2)');
  await batch.click();
  await page.locator('.arco-popconfirm').getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('已删除 1 条，1 条未能删除')).toBeVisible();
  await expect(row(page, account)).toHaveCount(0);
  await expect(batch).toContainText('(1)');
  await expect(row(page, demoAccounts.admin.account).first().locator('.arco-checkbox-checked')).toBeVisible();
});

test('a tenant’s expiry is set and cleared in its form', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/system/tenant');
  const acme = row(page, 'acme').first();
  await acme.getByRole('button', { name: '编辑' }).click();
  const picker = drawer(page).locator('.arco-picker');
  await picker.click();
  // the 15th of next month, at the time the picker offers
  await page.locator('.arco-picker-container .arco-icon-right').first().click();
  await page.locator('.arco-picker-container .arco-picker-cell-in-view').filter({ hasText: /^15$/ }).click();
  await page.locator('.arco-picker-container').getByRole('button', { name: '确定' }).click();
  await save(page);
  const next = new Date();
  next.setDate(1);
  next.setMonth(next.getMonth() + 1);
  const day = `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, '0')}-15`;
  await expect(acme).toContainText(day);
  // cleared again: the tenant never expires
  await acme.getByRole('button', { name: '编辑' }).click();
  await picker.hover();
  await picker.locator('.arco-picker-clear-icon').click();
  await save(page);
  await expect(acme).not.toContainText(day);
});

test('a tenant administrator sees the super admin’s row locked, with the reason, instead of actions that fail', async ({ page }) => {
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password, '/system/user');
  const superAdmin = page.locator('tr.arco-table-tr').filter({ hasText: '超级管理员' }).first();
  await expect(superAdmin).toBeVisible();
  await expect(superAdmin.getByRole('button', { name: '编辑' })).toBeDisabled();
  await expect(superAdmin.getByRole('button', { name: '删除' })).toBeDisabled();
  await expect(superAdmin.locator('.arco-switch')).toBeDisabled();
  await superAdmin.getByRole('button', { name: '编辑' }).hover({ force: true });
  await expect(page.getByText('超级管理员只能由超级管理员修改').first()).toBeVisible();
  // an ordinary member's row keeps its actions
  const member = page.locator('tr.arco-table-tr').filter({ hasText: '普通用户' }).first();
  await expect(member.getByRole('button', { name: '编辑' })).toBeEnabled();
});
