import { expect as baseExpect, type Download, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { demoAccounts, signIn } from './support/auth';

// Issue 41 groups 1 and 2: a time is shown in the browser's zone, a day is the tenant's (Asia/Shanghai for
// the demo tenants), and what the server writes (an export) follows the app's language and the user's zone.
const expect = baseExpect.configure({ timeout: 30_000 });

const HONOLULU = 'Pacific/Honolulu'; // UTC-10 all year: far from the server's UTC and the tenant's UTC+8

/** `2026-11-27 09:05:33` of an instant in a zone, as exports write it. */
const inZone = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

/** A draft sales order made through the API (set up through the API, tested through the UI). */
async function saleOrder(page: Page): Promise<{ orderNo: string; createTime: string }> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}`, 'device-type': 'web' };
  const stamp = Date.now().toString(36);
  const post = async (url: string, data: unknown) => {
    const answer = await page.request.post(url, { data, headers });
    const body = (await answer.json()) as { code: number; data: Record<string, unknown> };
    expect(body.code, `${url} ${JSON.stringify(body)}`).toBe(200);
    return body.data;
  };
  const product = await post('/api/erp/product', { name: `Zone ${stamp}`, code: `TZ${stamp}`, skus: [{ price: 105_400 }] });
  const warehouse = await post('/api/erp/warehouse', { name: `Zone ${stamp}`, code: `TZW${stamp}` });
  const skuId = (product.skus as { id: number }[])[0]?.id;
  const sale = await post('/api/erp/sale', { warehouseId: warehouse.id, items: [{ skuId, quantity: 1 }] });
  return { orderNo: sale.orderNo as string, createTime: sale.createTime as string };
}

/** The rows of a downloaded .xlsx as header → value. */
async function sheetOf(download: Download): Promise<{ header: string[]; rows: Record<string, unknown>[] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const ws = workbook.worksheets[0];
  if (!ws) throw new Error('the export has no sheet');
  const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Record<string, unknown>[] = [];
  ws.eachRow((r, n) => {
    if (n > 1) rows.push(Object.fromEntries(header.map((h, i) => [h, r.getCell(i + 1).value])));
  });
  return { header, rows };
}

async function exportSales(page: Page, label: RegExp): Promise<Awaited<ReturnType<typeof sheetOf>>> {
  const file = page.waitForEvent('download');
  await page.getByRole('button', { name: label }).click();
  return sheetOf(await file);
}

test('in a browser far from the server, the list, the detail and the export show one local time; the order number carries the tenant’s day', async ({
  browser,
}) => {
  const context = await browser.newContext({ timezoneId: HONOLULU, locale: 'zh-CN' });
  const page = await context.newPage();
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password);
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(HONOLULU);
  const { orderNo, createTime } = await saleOrder(page);
  // the business day is the tenant's (Asia/Shanghai), not UTC's nor the browser's
  expect(orderNo.slice(2, 10)).toBe(inZone(createTime, 'Asia/Shanghai').slice(0, 10).replaceAll('-', ''));
  const local = inZone(createTime, HONOLULU);

  await page.goto('/erp/sale');
  const row = page.locator('tr.arco-table-tr').filter({ hasText: orderNo });
  await expect(row).toContainText(local.slice(0, 16));
  await expect(row).toContainText('¥1,054.00');
  await row.getByRole('button', { name: '详情' }).click();
  const dialog = page.locator('.arco-modal').filter({ hasText: orderNo });
  await expect(dialog).toContainText(local.slice(0, 16));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const sheet = await exportSales(page, /导出/);
  const exported = sheet.rows.find((r) => Object.values(r).includes(orderNo));
  expect(exported, `${orderNo} in the export`).toBeDefined();
  expect(exported?.[sheet.header.find((h) => h === '创建时间') ?? '创建时间']).toBe(local);
  await context.close();
});

test('the app’s language, not the browser’s: an English app in a Chinese browser exports in English', async ({ page }) => {
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
  await page.evaluate(() => localStorage.setItem('arco-lang', 'en-US'));
  await page.goto('/erp/sale');
  await expect(page.getByRole('button', { name: /Export/ })).toBeVisible();
  const sheet = await exportSales(page, /Export/);
  expect(sheet.header).toContain('Order no.');
  expect(sheet.header).not.toContain('单号');
});
