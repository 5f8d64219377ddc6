import { expect as baseExpect, test } from '@playwright/test';
import jsQR from 'jsqr';
import { demoAccounts, signIn, storedToken } from './support/auth';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });

test('the member code on the member detail page decodes to the member code it shows', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password);
  const token = await storedToken(page);
  const members = await page.request.get('/api/erp/member?pageSize=1', { headers: { authorization: `Bearer ${token}` } });
  const member = (await members.json()).data.list[0] as { id: number; name: string };
  const code = `M${String(member.id).padStart(6, '0')}`;

  await page.goto(`/erp/member/detail/${member.id}`);
  await page.getByRole('button', { name: '会员码' }).click();
  const canvas = page.getByRole('img', { name: `会员码 ${code}` });
  await expect(canvas).toBeVisible();
  await expect(page.locator('.arco-modal').getByText(code, { exact: true })).toBeVisible();

  // read back what was drawn and decode it with an independent decoder
  const image = await canvas.evaluate((node) => {
    const c = node as HTMLCanvasElement;
    const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height);
    return data ? { width: data.width, height: data.height, pixels: Array.from(data.data) } : null;
  });
  expect(image).not.toBeNull();
  if (!image) return;
  const decoded = jsQR(Uint8ClampedArray.from(image.pixels), image.width, image.height);
  expect(decoded?.data).toBe(code);
  // the spec's size for scanned codes: 400 CSS pixels
  expect(await canvas.evaluate((node) => (node as HTMLCanvasElement).style.width)).toBe('400px');
  await page.screenshot({ path: 'artifacts/member-qr.png' });
});
