import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { demoAccounts, signIn } from './support/auth';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });
const port = Number(process.env.E2E_PORT ?? 18080);
const brokerUrl = `ws://127.0.0.1:${port + 3}/mqtt`;
// relative to this file: the suite runs from the repository root in CI and from e2e/ by hand
const simulatorCli = fileURLToPath(new URL('../../apps/server/tools/printer-sim.ts', import.meta.url));

/** The API as the signed-in page calls it (its token from the page's storage). */
async function api<T>(page: Page, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { code: number; data: T };
  expect(body.code, `${method} ${url}`).toBe(200);
  return body.data;
}

/** The demo simulator printer of Acme (seeded), run as a real device against the test server's broker. */
function startSimulator(out: string): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', simulatorCli, '--sn', 'SIM-ACME', '--key', 'demo-printer-acme', '--url', brokerUrl, '--out', out],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** What the simulator printed, attached to the report so that a printer that never came online says why. */
function collectOutput(child: ChildProcess): () => string {
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString('utf8');
}

test('publish a product, edit price and stock in the tabbed page, print an order to the simulator and see it PRINTED live', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const out = mkdtempSync(path.join(os.tmpdir(), 'atrium-receipts-'));
  const simulator = startSimulator(out);
  const simulatorOutput = collectOutput(simulator);
  try {
    await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password);
    const stamp = Date.now().toString(36);
    const name = `E2E茶${stamp}`;
    const product = await api<{ id: number; skus: { id: number }[] }>(page, 'POST', '/api/erp/product', {
      name,
      code: `MALL${stamp}`,
      skus: [{ price: 1250 }],
    });

    // publish it from the goods list: the update page opens
    await page.goto('/mall/goods');
    await page.getByTestId('goods-publish').click();
    // found by its code, and said with it
    await page.getByTestId('goods-product').locator('.arco-select').click();
    await page.getByTestId('goods-product').locator('input').fill(`mall${stamp}`);
    await page.getByRole('option', { name: `${name} (MALL${stamp})` }).click();
    await page
      .locator('.arco-modal')
      .getByRole('button', { name: /确定|OK/ })
      .click();
    await expect(page).toHaveURL(/\/mall\/goods\/update\/\d+/);
    const goodsId = Number(/update\/(\d+)/.exec(page.url())?.[1]);

    // a validation error on another tab: saving from the price tab jumps to 基本信息
    await page.getByTestId('goods-field-title').locator('input').fill('');
    await page.getByTestId('goods-tab-price').click();
    await page.getByTestId(`goods-price-${product.skus[0]?.id}`).fill('9.90');
    await page.getByTestId('goods-save').click();
    await expect(page.getByTestId('goods-field-title')).toBeVisible();
    await expect(page.getByTestId('goods-field-title').locator('.arco-form-message')).toContainText('商品标题');
    await page.getByTestId('goods-field-title').locator('input').fill(`${name} 礼盒`);
    await page.getByTestId('goods-save').click();
    await expect(page.getByText('已保存')).toBeVisible();
    // the price went as fen
    const saved = await api<{ price: number; stock: number }>(page, 'GET', `/api/mall/goods/${goodsId}`);
    expect(saved.price).toBe(990);

    // stock: +3 through the ledger
    await page.getByTestId('goods-tab-price').click();
    await page.getByTestId(`goods-delta-${product.skus[0]?.id}`).fill('+3');
    await page.getByTestId(`goods-delta-apply-${product.skus[0]?.id}`).click();
    await expect(page.getByText('库存已调整，当前 3')).toBeVisible();
    expect((await api<{ stock: number }>(page, 'GET', `/api/mall/goods/${goodsId}`)).stock).toBe(3);

    // an order of it, confirmed (the simulator prints confirmed orders by itself too)
    const warehouses = await api<{ list: { id: number }[] }>(page, 'GET', '/api/erp/warehouse?isDefault=true');
    const stock = await api<{ list: { warehouseId: number }[] }>(page, 'GET', `/api/erp/stock?skuId=${product.skus[0]?.id}`);
    const warehouseId = stock.list[0]?.warehouseId ?? warehouses.list[0]?.id;
    const sale = await api<{ id: number; orderNo: string }>(page, 'POST', '/api/erp/sale', {
      warehouseId,
      items: [{ skuId: product.skus[0]?.id, quantity: 1 }],
    });
    await api(page, 'PUT', `/api/erp/sale/${sale.id}/confirm`, {});

    // the simulator is online on the printer page
    await page.goto('/erp/printer');
    await expect(page.getByTestId('printer-state-SIM-ACME')).toHaveText('在线');

    // print the order from its detail dialog and watch the job turn 已打印 live
    await page.goto('/erp/sale');
    const order = page.locator('tr.arco-table-tr').filter({ hasText: sale.orderNo });
    await order.getByRole('button', { name: '详情' }).click();
    await page.locator('.arco-modal').filter({ hasText: sale.orderNo }).getByTestId('sale-print').click();
    const dialog = page.locator('.arco-modal').filter({ has: page.getByTestId('print-printer') });
    await dialog.getByTestId('print-printer').click();
    await page
      .getByRole('option', { name: /SIM|模拟|simulator/i })
      .first()
      .click();
    await dialog.getByRole('button', { name: '打印' }).click();
    await expect(dialog.getByTestId('print-job-status')).toHaveText('已打印');
    const jobId = Number(/任务号\s*(\d+)/.exec(await dialog.innerText())?.[1]);
    expect(jobId).toBeGreaterThan(0);

    const png = path.join(out, `${jobId}.png`);
    await expect.poll(() => existsSync(png)).toBe(true);
    expect(readFileSync(path.join(out, `${jobId}.txt`), 'utf8')).toContain(sale.orderNo);
    // kept with the test's output (artifacts/results/…/receipt.png) and attached to its report
    copyFileSync(png, testInfo.outputPath('receipt.png'));
    await testInfo.attach('receipt.png', { path: testInfo.outputPath('receipt.png'), contentType: 'image/png' });
    await page.screenshot({ path: testInfo.outputPath('print-dialog.png') });

    // 重新打印 from the printer's job list: a new job of the same receipt, printed by the simulator
    await page.goto('/erp/printer');
    await page.locator('tr.arco-table-tr').filter({ hasText: 'SIM-ACME' }).getByRole('button', { name: '更多' }).click();
    await page.locator('.crud-more-actions:visible').getByTestId('printer-jobs-SIM-ACME').click();
    await page.getByTestId(`job-reprint-${jobId}`).click();
    await page.locator('.arco-popconfirm:visible').getByRole('button', { name: '确定' }).click();
    const reprint = page.locator('tr.arco-table-tr').filter({ hasText: `重印自 ${jobId}` });
    await expect(reprint).toContainText('已打印');
    const reprintId = Number(
      (await reprint.locator('[data-testid^="job-status-"]').getAttribute('data-testid'))?.slice('job-status-'.length),
    );
    expect(reprintId).toBeGreaterThan(jobId);
    await expect.poll(() => existsSync(path.join(out, `${reprintId}.png`))).toBe(true);
    expect(readFileSync(path.join(out, `${reprintId}.txt`), 'utf8')).toContain(sale.orderNo);
  } finally {
    simulator.kill('SIGTERM');
    await testInfo.attach('printer-sim.log', { body: simulatorOutput(), contentType: 'text/plain' });
  }
});

test('cloud vendor accounts: the key is required once, then never shown again', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(() => localStorage.setItem('arco-lang', 'en-US'));
  const page = await context.newPage();
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password, '/erp/printer');
  await page.getByTestId('vendor-accounts').click();
  const feie = page.getByTestId('vendor-feie');
  await expect(feie.getByText('Not set up')).toBeVisible();
  await feie.getByLabel('USER (account)').fill('tea@acme.example');
  await feie.getByRole('button', { name: 'Save' }).click();
  // the key is missing: the field says so and nothing is stored
  await expect(feie.locator('.arco-form-message').filter({ hasText: 'UKEY' })).toBeVisible();
  await expect(feie.getByText('Not set up')).toBeVisible();
  await feie.getByLabel('UKEY').fill('ukey-written-once');
  await feie.getByRole('button', { name: 'Save' }).click();
  await expect(feie.getByText('Set up', { exact: true })).toBeVisible();
  await expect(feie.getByLabel('UKEY')).toHaveValue('');
  await expect(feie.getByLabel('UKEY')).toHaveAttribute('placeholder', 'Set; leave empty to keep it');
  const stored = await api<{ vendor: string; accountUser: string; keySet: boolean }[]>(page, 'GET', '/api/mall/printer/vendor-account');
  expect(stored.find((a) => a.vendor === 'feie')).toMatchObject({ accountUser: 'tea@acme.example', keySet: true });
  expect(JSON.stringify(stored)).not.toContain('ukey-written-once');
  // removed again, so that reruns start where this one did
  await feie.getByRole('button', { name: 'Remove' }).click();
  await page.locator('.arco-popconfirm').getByRole('button', { name: 'OK' }).click();
  await expect(feie.getByText('Not set up')).toBeVisible();
  await context.close();
});

test('a role without the mall lists is not offered them: the menu leaves them out, and their address says why and leads on', async ({
  page,
}) => {
  await signIn(page, demoAccounts.user.account, demoAccounts.user.password);
  for (const path of ['/mall/goods', '/erp/printer']) {
    await page.goto(path);
    await expect(page.getByText('您没有访问该页面的权限')).toBeVisible();
    await expect(page).not.toHaveURL(new RegExp(`${path}$`));
  }
  // the side menu has no entry that would only open on "no permission"
  await expect(page.locator('.arco-menu').getByText('打印机管理', { exact: true })).toHaveCount(0);
});
