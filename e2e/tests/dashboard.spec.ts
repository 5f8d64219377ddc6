import { expect as baseExpect, type Page, test } from '@playwright/test';
import { demoAccounts, signIn, switchTenant } from './support/auth';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });

/** The API as the signed-in page calls it (its token from the page's storage). */
async function api<T>(page: Page, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { code: number; data: T };
  expect(body.code, `${method} ${url}`).toBe(200);
  return body.data;
}

const acme = demoAccounts.acme;

test('the workplace shows the tenant figures and a notice sent a moment before', async ({ page }) => {
  await signIn(page, acme.account, acme.password);
  const title = `E2E 公告 ${Date.now().toString(36)}`;
  await api(page, 'POST', '/api/system/notice', { title, content: 'hello', scope: 'tenant' });
  await page.goto('/dashboard/workplace');
  await expect(page.getByTestId('workplace-notices')).toContainText(title);
  // the month's sales as the API sums them, in yuan
  const figures = await api<{ sales: { monthAmount: number } }>(
    page,
    'GET',
    `/api/user/workplace?tz=${encodeURIComponent(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone))}`,
  );
  const month = (figures.sales.monthAmount / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  await expect(page.getByTestId('kpi-month')).toContainText(month);
  await expect(page.getByTestId('workplace-trend').locator('svg polyline')).toHaveCount(1);
  await expect(page.getByTestId('workplace-popular').locator('li').first()).toBeVisible();
});

test('data analysis draws its charts from the API, resizes them with the window and exports PNG and Excel', async ({ page }) => {
  await signIn(page, acme.account, acme.password, '/visualization/data-analysis');
  const sales = page.getByTestId('canvas-sales');
  await expect(sales).toHaveAttribute('data-ready', 'true');
  await expect(sales.locator('canvas')).toHaveCount(1);
  // the order count on the page is the API's for the same default range (the last 30 days)
  const today = await page.evaluate(() => {
    const d = new Date();
    const day = (x: Date) => `${x.getFullYear()}-${String(x.getMonth() + 1).padStart(2, '0')}-${String(x.getDate()).padStart(2, '0')}`;
    return { to: day(d), from: day(new Date(d.getTime() - 29 * 86_400_000)), tz: Intl.DateTimeFormat().resolvedOptions().timeZone };
  });
  const data = await api<{ totals: { orders: number } }>(
    page,
    'GET',
    `/api/dashboard/analysis?from=${today.from}&to=${today.to}&tz=${encodeURIComponent(today.tz)}`,
  );
  await expect(page.getByTestId('kpi-orders')).toContainText(String(data.totals.orders));

  // the chart fills its card and follows the window
  const before = (await sales.locator('canvas').boundingBox())?.width ?? 0;
  await page.setViewportSize({ width: 1000, height: 900 });
  await expect.poll(async () => (await sales.locator('canvas').boundingBox())?.width ?? 0).toBeLessThan(before - 100);

  const png = page.waitForEvent('download');
  await page.getByTestId('png-sales').click();
  expect((await png).suggestedFilename()).toMatch(/^sales-.*\.png$/);
  const excel = page.waitForEvent('download');
  await page.getByTestId('excel-warehouse').click();
  expect((await excel).suggestedFilename()).toMatch(/^warehouse-.*\.xlsx$/);

  // the multi-dimension page: a pivot of the same orders
  await page.goto('/visualization/multi-dimension-data-analysis');
  await expect(page.getByTestId('canvas-matrix')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('pivot-table').locator('tbody tr').first()).toBeVisible();
});

test('the monitor turns live over MQTT and keeps updating without a reload; the server’s figures are the super admin’s', async ({
  page,
  browser,
}) => {
  // a tenant administrator sees the tenant's own figures, not the host's
  const tenantPage = await browser.newPage();
  await signIn(tenantPage, acme.account, acme.password, '/dashboard/monitor');
  await expect(tenantPage.getByTestId('monitor-sessions')).toBeVisible();
  await expect(tenantPage.getByTestId('monitor-server')).toHaveCount(0);
  await expect(tenantPage.getByTestId('monitor-rps')).toHaveCount(0);
  await tenantPage.close();
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password, '/dashboard/monitor');
  await expect(page.getByTestId('monitor-live')).toContainText('实时');
  const first = await page.getByTestId('monitor-server').innerText();
  await expect.poll(async () => page.getByTestId('monitor-history').getAttribute('data-ready')).toBe('true');
  // frames keep arriving (one every two seconds): the "updated" time, to the second, moves on
  const stamp = page.getByText(/更新于/);
  const was = await stamp.innerText();
  await expect.poll(async () => stamp.innerText(), { timeout: 90_000 }).not.toBe(was);
  expect(first).toContain('MB');
});

test('basic profile: a parameter change is checked in the page, committed, and decided by someone else', async ({ page, browser }) => {
  await signIn(page, acme.account, acme.password, '/profile/basic');
  await page.getByTestId('approval-new').click();
  const form = page.getByTestId('approval-form');
  await form.locator('input').nth(1).fill('9bad');
  await page
    .locator('.arco-modal')
    .getByRole('button', { name: /确定|OK/ })
    .click();
  await expect(form).toContainText('以字母开头');
  const title = `E2E 审批 ${Date.now().toString(36)}`;
  await form.locator('input').nth(0).fill(title);
  await form.locator('input').nth(1).fill('sale.limit');
  await form.locator('input').nth(3).fill('9');
  await page
    .locator('.arco-modal')
    .getByRole('button', { name: /确定|OK/ })
    .click();
  const detail = page.getByTestId('approval-detail');
  await expect(detail).toContainText(title);
  await expect(page.getByTestId('approval-records')).toContainText('审核中');
  // the one who committed it waits for another approver: no Pass or Reject for them
  await expect(page.getByTestId('approval-own')).toHaveText('等待他人审批');
  await expect(page.getByTestId('approval-pass')).toHaveCount(0);

  // the super admin, in the same tenant, passes it
  const other = await browser.newContext();
  const reviewer = await other.newPage();
  try {
    await signIn(reviewer, demoAccounts.admin.account, demoAccounts.admin.password);
    await switchTenant(reviewer, 'Acme Trading');
    await reviewer.goto('/profile/basic');
    await reviewer.getByPlaceholder('按标题搜索').fill(title);
    await reviewer.getByPlaceholder('按标题搜索').press('Enter');
    await reviewer.getByTestId('approval-list').getByText(title).click();
    await expect(reviewer.getByTestId('approval-detail')).toContainText(title);
    await reviewer.getByTestId('approval-pass').click();
    await reviewer
      .locator('.arco-popconfirm')
      .getByRole('button', { name: /确定|OK/ })
      .click();
    await expect(reviewer.getByTestId('approval-records').locator('tbody tr')).toHaveCount(3);
    await expect(reviewer.getByTestId('approval-records')).toContainText('admin');
    await switchTenant(reviewer, 'Atrium HQ');
  } finally {
    await other.close();
  }
  await page.reload();
  await expect(page.getByTestId('approval-records').locator('tbody tr')).toHaveCount(3);
  await expect(page.getByTestId('approval-own')).toHaveCount(0);
});

test('staging: a pinned page stays pinned after a reload', async ({ page }) => {
  await signIn(page, acme.account, acme.password, '/staging');
  const pinned = page.getByTestId('staging-pinned');
  // start from no pins (another run may have left some)
  await api(page, 'PUT', '/api/user/pins', { pins: [] });
  await page.reload();
  await page.getByTestId('pin-Card').first().click();
  await expect(pinned.getByText('卡片列表')).toBeVisible();
  await page.reload();
  await expect(pinned.getByText('卡片列表')).toBeVisible();
  await api(page, 'PUT', '/api/user/pins', { pins: [] });
});

test('staging: a to-do count opens the notifications it counts', async ({ page }) => {
  await signIn(page, acme.account, acme.password, '/staging');
  const title = `E2E 待读 ${Date.now().toString(36)}`;
  await api(page, 'POST', '/api/system/notice', { title, content: 'count me', scope: 'tenant' });
  await page.reload();
  await expect(page.getByTestId('todo-notices')).not.toContainText(/^\D*0$/);
  await page.getByTestId('todo-notices').click();
  await expect(page).toHaveURL(/\/user\/notification\?type=notice&read=unread$/);
  await expect(page.locator('#main-content')).toContainText(title);
  await expect(page.locator('#main-content')).not.toContainText('页面不存在');
});

for (const [locale, theme] of [
  ['en-US', 'dark'],
  ['zh-CN', 'dark'],
] as const) {
  test(`every dashboard page opens in ${locale}, ${theme}`, async ({ browser }) => {
    const context = await browser.newContext({ locale });
    await context.addInitScript(
      ([lang, th]) => {
        localStorage.setItem('arco-lang', lang);
        if (!localStorage.getItem('atrium-settings'))
          localStorage.setItem('atrium-settings', JSON.stringify({ state: { theme: th }, version: 0 }));
      },
      [locale, theme] as [string, string],
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, acme.account, acme.password);
    const english = locale === 'en-US';
    const pages: [string, RegExp][] = [
      ['/dashboard/workplace', english ? /Sales, last 30 days/ : /近 30 天销售额/],
      // a tenant administrator's monitor: the tenant's own figures (the host's are the platform's)
      ['/dashboard/monitor', english ? /Orders per minute/ : /每分钟订单数/],
      ['/visualization/data-analysis', english ? /Sales trend/ : /销售趋势/],
      ['/visualization/multi-dimension-data-analysis', english ? /Category × warehouse/ : /分类 × 仓库/],
      ['/profile/basic', english ? /Parameter approvals/ : /参数审批/],
      ['/staging', english ? /My to-dos|My shortcuts/ : /我的快捷方式/],
    ];
    for (const [path, heading] of pages) {
      await page.goto(path);
      await expect(page.locator('#main-content').getByText(heading).first()).toBeVisible();
      await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
    }
    expect(errors).toEqual([]);
    await context.close();
  });
}
