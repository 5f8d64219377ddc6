import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseLabels } from '@atrium/contracts/release-labels';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { demoAccounts, signIn } from './support/auth';

/** A release code as a page shows it: in words of the page's language (zh-CN here), or the code itself. */
const shown = <K extends keyof typeof releaseLabels>(kind: K, code: keyof (typeof releaseLabels)[K] & string) =>
  new RegExp(`^(${code}|${(releaseLabels[kind] as Record<string, { zh: string }>)[code]?.zh})$`);

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });
const agentCli = fileURLToPath(new URL('../../packages/agent/src/cli.ts', import.meta.url));
const suffix = Date.now().toString(36);
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell script (a default for $ATRIUM_VAR_PAUSE), not a template
const SCRIPT = 'for i in 1 2 3; do echo "line $i of $ATRIUM_VERSION"; done\nsleep "${ATRIUM_VAR_PAUSE:-0}"\necho finished';

let agent: ChildProcess | undefined;
let work: string | undefined;
test.afterAll(() => {
  agent?.kill('SIGTERM');
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The open dialog: a release page's modal, or the generic page's drawer (the projects'). */
const modal = (page: Page) =>
  page
    .locator('.arco-modal, .arco-drawer')
    .filter({ has: page.locator('.arco-modal-footer, .arco-drawer-footer') })
    .last();
const okButton = '.arco-modal-footer .arco-btn-primary, .arco-drawer-footer .arco-btn-primary';
const field = (page: Page, label: string) => modal(page).locator('.arco-form-item').filter({ hasText: label }).first();
const row = (page: Page, text: string) => page.locator('tr.arco-table-tr').filter({ hasText: text });
async function pick(page: Page, label: string, option: string) {
  await field(page, label).locator('.arco-select-view').click();
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: option }).first().click();
}
/** Replaces the script in the dialog's code editor, as typed. */
async function writeScript(page: Page, script: string) {
  await modal(page).locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(script);
}
async function ok(page: Page) {
  const dialog = modal(page);
  await dialog.locator(okButton).click();
  await expect(dialog).toBeHidden();
}

test('creates an ability, a process and a task, follows its live log, and cancels a second task', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);

  // an agent: enrolment token from the client page, a real agent process, approval
  await page.goto('/release/client');
  await page.getByRole('button', { name: '生成注册令牌' }).click();
  const command = await page.locator('.arco-modal .arco-typography code, .arco-modal code').first().textContent();
  const token = /--enrol (\S+)/.exec(command ?? '')?.[1];
  expect(token).toBeTruthy();
  await page.locator('.arco-modal-footer .arco-btn').first().click();
  work = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-agent-'));
  agent = spawn(
    process.execPath,
    ['--import', 'tsx', agentCli, '--server', baseURL, '--enrol', token as string, '--work', work, '--hostname', `e2e-${suffix}`],
    {
      stdio: 'ignore',
    },
  );
  const host = row(page, `e2e-${suffix}`);
  // the agent process takes a moment to start and enrol; the list shows it once it has
  await expect(async () => {
    await page.reload();
    await baseExpect(host).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await host.getByRole('button', { name: '批准' }).click();
  // presence turns online live, without reloading
  await expect(host.getByText('在线', { exact: true })).toBeVisible();

  // an ability: a script that prints three lines, then waits $ATRIUM_VAR_PAUSE seconds
  await page.goto('/release/ability');
  await page.getByRole('button', { name: '新建' }).click();
  await field(page, '标识').locator('input').fill(`deploy${suffix}`);
  await field(page, '名称').locator('input').fill('Deploy');
  await writeScript(page, SCRIPT);
  await ok(page);
  await row(page, `deploy${suffix}`).getByRole('button', { name: '发布' }).click();
  await expect(row(page, `deploy${suffix}`).getByText(shown('abilityStatus', 'PUBLISHED'))).toBeVisible();

  // a project and an environment
  await page.goto('/release/project');
  await page.getByRole('button', { name: '新建' }).click();
  // sent empty: the checks show under the fields they are about, and the drawer stays open
  await modal(page).locator(okButton).click();
  await expect(field(page, '标识').locator('.arco-form-message')).toBeVisible();
  // the generic drawer names the field in its message, as on every entity page
  await expect(field(page, '名称').locator('.arco-form-message')).toHaveText('名称不能为空');
  await field(page, '标识').locator('input').fill(`shop${suffix}`);
  await field(page, '名称').locator('input').fill(`Shop ${suffix}`);
  await ok(page);
  await page.goto('/release/env');
  await page.getByRole('button', { name: '新建' }).click();
  await field(page, '标识').locator('input').fill(`staging${suffix}`);
  await field(page, '名称').locator('input').fill(`Staging ${suffix}`);
  await ok(page);

  // two processes: one quick, one that waits
  for (const [name, params] of [
    [`Quick ${suffix}`, ''],
    [`Slow ${suffix}`, 'PAUSE=300'],
  ] as const) {
    await page.goto('/release/process');
    await page.getByRole('button', { name: '新建' }).click();
    await field(page, '名称').locator('input').fill(name);
    await pick(page, '项目', `Shop ${suffix}`);
    await modal(page).locator('.arco-card .arco-select-view').first().click();
    await page
      .locator('.arco-select-popup:visible .arco-select-option')
      .filter({ hasText: `deploy${suffix}` })
      .first()
      .click();
    if (params) await modal(page).locator('.arco-card textarea').first().fill(params);
    await ok(page);
  }

  const startTask = async (processName: string, version: string) => {
    await page.goto('/release/task');
    await page.getByRole('button', { name: '发起发布' }).click();
    await pick(page, '项目', `Shop ${suffix}`);
    await pick(page, '环境', `Staging ${suffix}`);
    await pick(page, '流程', processName);
    await field(page, '版本').locator('input').fill(version);
    await ok(page);
    await row(page, version).first().click();
    return page.locator('.arco-drawer');
  };

  // the first task: its log shows up and it succeeds
  const first = await startTask(`Quick ${suffix}`, `1.0.${suffix}`);
  await expect(first.getByTestId('release-log')).toContainText(`line 3 of 1.0.${suffix}`);
  await expect(first.getByTestId('release-log')).toContainText('finished');
  await expect(first.getByText(shown('taskStatus', 'SUCCEEDED')).first()).toBeVisible();

  // the second task: watched live while it runs, then cancelled
  const second = await startTask(`Slow ${suffix}`, `2.0.${suffix}`);
  await expect(second.getByTestId('release-log')).toContainText(`line 3 of 2.0.${suffix}`);
  await expect(second.getByText(shown('taskStatus', 'RUNNING')).first()).toBeVisible();
  // force release asks first; keeping the task changes nothing
  await second.getByRole('button', { name: '强制释放' }).click();
  const confirm = page.locator('.arco-popconfirm:visible');
  await expect(confirm).toContainText('强制释放会把任务记为丢失');
  await confirm.getByRole('button', { name: '保留任务' }).click();
  await expect(confirm).toBeHidden();
  await expect(second.getByText(shown('taskStatus', 'RUNNING')).first()).toBeVisible();
  // cancelling asks too, and its two buttons do not both say "cancel"
  await second.getByRole('button', { name: '取消任务' }).click();
  await expect(confirm.getByRole('button')).toHaveText(['保留任务', '取消任务']);
  await confirm.getByRole('button', { name: '取消任务' }).click();
  await expect(second.getByText(shown('taskStatus', 'CANCELED')).first()).toBeVisible();
  await expect(second.getByTestId('release-log')).not.toContainText('finished');

  // the list by status: the cancelled task shows, the one that succeeded does not (the drawer closed by
  // its button: an Escape right after the confirmation closed could land nowhere)
  await second.locator('.arco-drawer-close-icon').click();
  await expect(second).toBeHidden();
  await page.getByRole('combobox', { name: '状态' }).click();
  await page
    .locator('.arco-select-popup:visible .arco-select-option')
    .filter({ hasText: shown('taskStatus', 'CANCELED') })
    .first()
    .click();
  await expect(row(page, `2.0.${suffix}`)).toHaveCount(1);
  await expect(row(page, `1.0.${suffix}`)).toHaveCount(0);
});

test('keeps every version of an ability readable, and a process keeps the order dragged and the retries set', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/release/ability');
  const key = `check${suffix}`;
  await page.getByRole('button', { name: '新建' }).click();
  await field(page, '标识').locator('input').fill(key);
  await field(page, '名称').locator('input').fill('Check');
  await writeScript(page, 'echo "first version"');
  await ok(page);
  await row(page, key).getByRole('button', { name: '发布' }).click();
  await expect(row(page, key).getByText(shown('abilityStatus', 'PUBLISHED'))).toBeVisible();
  // a published version is frozen: "new version" opens the next draft with its body
  await row(page, key).getByRole('button', { name: '新版本' }).click();
  await expect(modal(page).locator('.cm-content')).toContainText('first version');
  await writeScript(page, 'echo "second version"');
  await ok(page);
  const v2 = row(page, key).filter({ hasText: 'v2' });
  await v2.getByRole('button', { name: '发布' }).click();
  await expect(v2.getByText(shown('abilityStatus', 'PUBLISHED'))).toBeVisible();

  await v2.getByRole('button', { name: '版本历史' }).click();
  const drawer = page.locator('.arco-drawer');
  await expect(drawer.getByTestId('ability-version-2')).toBeVisible();
  await expect(drawer.getByTestId('code-editor')).toContainText('second version');
  await drawer.getByTestId('ability-version-1').click();
  await expect(drawer.getByTestId('code-editor')).toContainText('first version');
  await expect(drawer.getByTestId('code-editor')).not.toContainText('second version');
  await drawer.locator('.arco-drawer-close-icon').click();

  // the search narrows the list: a key from its start, then a status; reset shows every key again
  const search = page.locator('.crud-search');
  const searchField = (label: string) => search.locator('.arco-form-item').filter({ hasText: label });
  await searchField('标识').locator('input').fill(key.slice(0, -1));
  await search.getByRole('button', { name: '查询' }).click();
  await expect(row(page, key)).toHaveCount(2);
  await expect(page.locator('tr.arco-table-tr').filter({ hasText: 'demo.deploy' })).toHaveCount(0);
  await searchField('状态').locator('.arco-select-view').click();
  await page
    .locator('.arco-select-popup:visible .arco-select-option')
    .filter({ hasText: shown('abilityStatus', 'DEPRECATED') })
    .click();
  await search.getByRole('button', { name: '查询' }).click();
  await expect(row(page, key)).toHaveCount(0);
  await search.getByRole('button', { name: '重置' }).click();
  await expect(row(page, key)).toHaveCount(2);

  // a process of both versions, the second dragged above the first, with retries on one step
  await page.goto('/release/project');
  await page.getByRole('button', { name: '新建' }).click();
  await field(page, '标识').locator('input').fill(`ordered${suffix}`);
  await field(page, '名称').locator('input').fill(`Ordered project ${suffix}`);
  await ok(page);
  await page.goto('/release/process');
  await page.getByRole('button', { name: '新建' }).click();
  const name = `Ordered ${suffix}`;
  await field(page, '名称').locator('input').fill(name);
  await pick(page, '项目', `Ordered project ${suffix}`);
  for (const [index, version] of [
    [1, 1],
    [2, 2],
  ] as const) {
    if (index === 2) await modal(page).getByRole('button', { name: '添加步骤' }).click();
    await modal(page).getByTestId(`process-step-${index}`).locator('.arco-select-view').first().click();
    await page
      .locator('.arco-select-popup:visible .arco-select-option')
      .filter({ hasText: `${key}@v${version}` })
      .first()
      .click();
  }
  await modal(page).getByTestId('process-step-2').getByLabel('失败重试 2').fill('2');
  await modal(page).getByTestId('process-step-2').dragTo(modal(page).getByTestId('process-step-1'));
  await expect(modal(page).getByTestId('process-step-1')).toContainText(`${key}@v2`);
  await ok(page);
  await expect(row(page, name)).toContainText(`1. ${key}@v2`);

  // read back: the order and the retries are what was saved
  await row(page, name).getByRole('button', { name: '编辑' }).click();
  await expect(modal(page).getByTestId('process-step-1')).toContainText(`${key}@v2`);
  await expect(modal(page).getByTestId('process-step-1').getByLabel('失败重试 1')).toHaveValue('2');
  await expect(modal(page).getByTestId('process-step-2').getByLabel('失败重试 2')).toHaveValue('0');
  await modal(page).locator('.arco-modal-footer .arco-btn').first().click();
});

test('a reader of the release pages sees their lists and no button they may not use', async ({ page, request }) => {
  test.setTimeout(300_000);
  // as the administrator, over the API: a role that may only read the release lists, and a user holding it
  const login = await request.post('/api/system/user/login', {
    data: { account: demoAccounts.admin.account, password: demoAccounts.admin.password },
  });
  const headers = { authorization: `Bearer ${(await login.json()).data.token}` };
  const menus: { id: number; routeName: string | null; permission: string | null }[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const page = (await (await request.get(`/api/system/menu?pageSize=200&pageNum=${pageNum}`, { headers })).json()).data;
    menus.push(...page.list);
    if (menus.length >= page.total || page.list.length === 0) break;
  }
  const readable = menus.filter((m) => m.permission?.startsWith('release:') && m.permission.endsWith(':list'));
  const pages = menus.filter((m) => m.routeName?.startsWith('release'));
  expect(readable.length).toBeGreaterThan(4);
  const role = await request.post('/api/system/role', {
    headers,
    data: {
      name: `Reader ${suffix}`,
      code: `release_reader_${suffix}`,
      dataScope: '1',
      menuIds: [...readable, ...pages].map((m) => m.id),
    },
  });
  expect(role.status(), await role.text()).toBe(200);
  const account = `reader${suffix}`;
  const password = 'Kx9!release-reader';
  const user = await request.post('/api/system/user/info', {
    headers,
    data: { accountId: account, name: 'Release reader', password, roleIds: [(await role.json()).data.id] },
  });
  expect(user.status()).toBe(200);

  await signIn(page, account, password, '/release/project');
  const main = page.locator('#main-content');
  for (const path of [
    '/release/project',
    '/release/env',
    '/release/ability',
    '/release/process',
    '/release/client',
    '/release/user-project',
  ]) {
    await page.goto(path);
    await expect(main.locator('.arco-table'), path).toBeVisible();
    await expect(main.locator('.arco-spin-loading'), path).toHaveCount(0);
    // no actions column left empty (the ability list keeps it for its history button)
    if (path !== '/release/ability') await expect(main.locator('.arco-table-th').filter({ hasText: '操作' }), path).toHaveCount(0);
    // the lists show; no create, edit, publish, approve, grant or remove button
    await expect(
      main.getByRole('button', { name: /新建|编辑|删除|发布|弃用|新版本|生成注册令牌|批准|停用|吊销|授权|移除/ }),
      path,
    ).toHaveCount(0);
  }
});

test('deletes a project nothing uses, and keeps one a process belongs to, saying why', async ({ page, request }) => {
  const login = await request.post('/api/system/user/login', {
    data: { account: demoAccounts.admin.account, password: demoAccounts.admin.password },
  });
  const headers = { authorization: `Bearer ${(await login.json()).data.token}` };
  const post = async (url: string, data: unknown) => {
    const response = await request.post(url, { headers, data });
    expect(response.status(), await response.text()).toBe(200);
    return (await response.json()).data as { id: number };
  };
  const used = await post('/api/release/project', { key: `used${suffix}`, name: `Used ${suffix}` });
  await post('/api/release/project', { key: `spare${suffix}`, name: `Spare ${suffix}` });
  const ability = await post('/api/release/ability', {
    key: `del${suffix}`,
    name: 'Echo',
    runtime: 'shell',
    body: 'echo hi',
    timeoutSec: 60,
  });
  expect((await request.put(`/api/release/ability/${ability.id}/publish`, { headers, data: {} })).status()).toBe(200);
  await post('/api/release/process', {
    name: `Keeps ${suffix}`,
    projectId: used.id,
    steps: [{ abilityId: ability.id, params: {}, labels: [] }],
  });

  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/release/project');
  const confirm = async (name: string) => {
    await row(page, name).getByRole('button', { name: '删除' }).click();
    const pop = page.locator('.arco-popconfirm:visible');
    await expect(pop).toContainText(`确定删除“${name}”吗？`);
    await pop.getByRole('button', { name: /确定|OK/ }).click();
  };
  await confirm(`Spare ${suffix}`);
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(row(page, `Spare ${suffix}`)).toHaveCount(0);
  await confirm(`Used ${suffix}`);
  await expect(page.getByText('该项目有 1 个流程，不能删除')).toBeVisible();
  await expect(row(page, `Used ${suffix}`)).toHaveCount(1);
});

test('grants a user a level on a project for every environment, names them in the list, and takes the grant away', async ({
  page,
  request,
}) => {
  const login = await request.post('/api/system/user/login', {
    data: { account: demoAccounts.admin.account, password: demoAccounts.admin.password },
  });
  const headers = { authorization: `Bearer ${(await login.json()).data.token}` };
  const project = `Granted ${suffix}`;
  expect((await request.post('/api/release/project', { headers, data: { key: `granted${suffix}`, name: project } })).status()).toBe(200);
  const users = await request.get('/api/system/user/user', { headers, params: { accountId: demoAccounts.admin.account } });
  const user = ((await users.json()).data.list as { name: string; accountId: string }[]).find(
    (u) => u.accountId === demoAccounts.admin.account,
  ) as { name: string };

  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/release/user-project');
  await page.getByRole('button', { name: '新建' }).click();
  // the environment left empty is every environment, as its placeholder says
  await expect(field(page, '环境')).toContainText('全部环境');
  await pick(page, '用户', user.name);
  await pick(page, '项目', project);
  await pick(page, '权限级别', releaseLabels.permissionLevel.APPROVER.zh);
  await ok(page);
  const granted = row(page, project);
  await expect(granted).toContainText('全部环境');
  await expect(granted).toContainText(`(${demoAccounts.admin.account})`);
  await expect(granted.getByText(shown('permissionLevel', 'APPROVER'))).toBeVisible();

  await granted.getByRole('button', { name: '删除' }).click();
  await page
    .locator('.arco-popconfirm:visible')
    .getByRole('button', { name: /确定|OK/ })
    .click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(row(page, project)).toHaveCount(0);
});
