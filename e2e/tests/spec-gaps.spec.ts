import { expect as baseExpect, test } from '@playwright/test';
import { demoAccounts, signIn, storedToken } from './support/auth';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });

test('a chart fills its container’s height as well as its width, and follows it when it grows', async ({ page }) => {
  test.setTimeout(180_000);
  const { acme } = demoAccounts;
  await signIn(page, acme.account, acme.password, '/visualization/data-analysis');
  const box = page.getByTestId('canvas-members');
  await expect(box).toHaveAttribute('data-ready', 'true');
  const frame = page.getByTestId('chart-members').locator('.chart-frame');
  const heightOf = (locator: typeof box) => locator.evaluate((node) => Math.round(node.getBoundingClientRect().height));
  expect(await heightOf(box)).toBe(await heightOf(frame));
  // the container grows: the chart and its canvas follow
  await frame.evaluate((node) => {
    (node as HTMLElement).style.height = '480px';
  });
  await expect.poll(() => heightOf(box)).toBe(480);
  await expect.poll(() => heightOf(box.locator('canvas').first())).toBe(480);
});

// the downloads' unit test (apps/web/src/components/qr/qr.test.ts) covers every image type and quality;
// this one holds what a person gets: the logo drawn, real files of each type, a lower quality typed
test('the member code has the logo in its middle and downloads as PNG or as JPEG at the chosen quality', async ({ page }) => {
  test.setTimeout(180_000);
  const { acme } = demoAccounts;
  await signIn(page, acme.account, acme.password);
  const token = await storedToken(page);
  const members = await page.request.get('/api/erp/member?pageSize=1', { headers: { authorization: `Bearer ${token}` } });
  const member = (await members.json()).data.list[0] as { id: number };
  const code = `M${String(member.id).padStart(6, '0')}`;
  await page.goto(`/erp/member/detail/${member.id}`);
  await page.getByRole('button', { name: '会员码' }).click();
  const canvas = page.getByRole('img', { name: `会员码 ${code}` });
  await expect(canvas).toBeVisible();
  // the logo (the product's blue mark) covers the middle of the code
  await expect
    .poll(() =>
      canvas.evaluate((node) => {
        const c = node as HTMLCanvasElement;
        const [r, g, b] = c.getContext('2d')?.getImageData(c.width / 2 - c.width * 0.08, c.height / 2, 1, 1).data ?? [];
        return `${r},${g},${b}`;
      }),
    )
    .toBe('22,93,255');

  const fetchDownload = async (button: string) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(button).click()]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) };
  };
  const png = await fetchDownload('qr-download-png');
  expect(png.name).toBe(`${code}.png`);
  expect(png.bytes.subarray(0, 4).toString('hex')).toBe('89504e47');
  const best = await fetchDownload('qr-download-jpeg');
  expect(best.name).toBe(`${code}.jpg`);
  expect(best.bytes.subarray(0, 3).toString('hex')).toBe('ffd8ff');
  // a lower quality, typed: a smaller file
  const quality = page.getByRole('spinbutton', { name: 'JPEG 质量' });
  await quality.fill('0.1');
  await quality.press('Enter');
  const low = await fetchDownload('qr-download-jpeg');
  expect(low.bytes.subarray(0, 3).toString('hex')).toBe('ffd8ff');
  expect(low.bytes.length).toBeLessThan(best.bytes.length);
});
