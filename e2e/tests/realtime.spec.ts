import { expect, type Page, test } from '@playwright/test';
import { demoAccounts, signIn } from './support/auth';

/** The unread total the navbar bell announces ("消息通知 (未读 3)"), 0 when it shows none. */
async function unreadOnBell(page: Page): Promise<number> {
  const name = (await page.getByRole('button', { name: /消息通知/ }).getAttribute('aria-label')) ?? '';
  return Number(/未读 (\d+)/.exec(name)?.[1] ?? 0);
}

test.describe('realtime notifications', () => {
  test('admin sends a notice to user; user sees the badge rise without reload and reads it', async ({ browser }) => {
    const adminContext = await browser.newContext();
    const userContext = await browser.newContext();
    try {
      const adminPage = await adminContext.newPage();
      const userPage = await userContext.newPage();
      const logs: string[] = [];
      userPage.on('console', (message) => logs.push(message.text()));
      const sockets: string[] = [];
      const frames: number[] = [];
      userPage.on('websocket', (socket) => {
        sockets.push(socket.url());
        socket.on('framereceived', () => frames.push(Date.now()));
      });

      await signIn(userPage, demoAccounts.user.account, demoAccounts.user.password, '/staging');
      // the tab subscribed to its account's topic (the spec's log line)
      await expect.poll(() => logs.includes('订阅成功'), { timeout: 10_000 }).toBe(true);
      expect(sockets.some((url) => url.endsWith('/mqtt'))).toBe(true);
      const before = await unreadOnBell(userPage);
      // the staging page's count of unread notices follows the same event as the bell
      const noticesTile = userPage.getByTestId('todo-notices').locator('.kpi-value');
      await expect(noticesTile).toBeVisible();
      const noticesBefore = Number(await noticesTile.textContent());
      await userPage.evaluate(() => {
        (window as unknown as { sameDocument: boolean }).sameDocument = true;
      });

      // admin sends it from the notices page: audience "chosen users", found by name
      await signIn(adminPage, demoAccounts.admin.account, demoAccounts.admin.password, '/system/notice');
      const title = `Realtime check ${Date.now()}`;
      await adminPage.getByRole('button', { name: '发送通知' }).click();
      const modal = adminPage.locator('.arco-modal');
      await modal.locator('.arco-form-item', { hasText: '标题' }).locator('input').fill(title);
      await modal.locator('.arco-form-item', { hasText: '内容' }).locator('textarea').fill('Delivered over MQTT');
      await modal.getByText('指定用户').click();
      await modal.locator('.arco-form-item', { hasText: '接收对象' }).locator('.arco-select').click();
      await adminPage.keyboard.type('User');
      await adminPage.locator('.arco-select-option', { hasText: '(user)' }).click();
      // events arrive in the order the browsers saw them: the request is recorded before any frame it causes
      let sentAt = Number.POSITIVE_INFINITY;
      adminPage.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/api/system/notice')) sentAt = Date.now();
      });
      await modal.getByRole('button', { name: /^发\s*送$/ }).click();
      await expect(adminPage.getByText('通知已发送')).toBeVisible();
      await expect(adminPage.locator('.arco-table').getByText(title)).toBeVisible();

      // no reload: the badge rises and a toast names the notice
      await expect.poll(() => unreadOnBell(userPage), { timeout: 30_000, intervals: [50] }).toBe(before + 1);
      // the broker's frame reached the user's tab this long after admin pressed OK (stored, then published)
      const delivered = frames.find((at) => at >= sentAt);
      expect(delivered).toBeDefined();
      console.log(`notice reached the other browser ${(delivered ?? 0) - sentAt} ms after it was sent`);
      expect((delivered ?? Number.POSITIVE_INFINITY) - sentAt).toBeLessThan(3000);
      await expect(userPage.locator('.arco-notification').getByText(title)).toBeVisible();
      await expect(noticesTile).toHaveText(String(noticesBefore + 1));
      expect(await userPage.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

      await userPage.getByRole('button', { name: /消息通知/ }).click();
      const panel = userPage.getByRole('dialog', { name: '消息通知' });
      await panel.getByRole('tab', { name: /通知/ }).click();
      await panel.getByText(title).click();
      await expect.poll(() => unreadOnBell(userPage), { timeout: 30_000 }).toBe(before);
      await expect(noticesTile).toHaveText(String(noticesBefore));

      // the full list ("view all") shows it read
      await userPage.goto('/user/notification');
      const row = userPage.locator('.arco-table-tr', { hasText: title });
      await expect(row).toBeVisible();
      await expect(row.getByRole('button', { name: '标为已读' })).toHaveCount(0);
    } finally {
      await adminContext.close();
      await userContext.close();
    }
  });
});
