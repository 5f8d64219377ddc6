import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { demoAccounts, signIn } from './support/auth';

const expect = baseExpect.configure({ timeout: 30_000 });
const shots = path.join(import.meta.dirname, '../artifacts/template-pages');
mkdirSync(shots, { recursive: true });

// every template page with its menu label in both languages
const pages = [
  { path: '/staging', zh: '首页', en: 'Staging' },
  { path: '/dashboard/workplace', zh: '工作台', en: 'Workplace' },
  { path: '/dashboard/monitor', zh: '实时监控', en: 'Monitor' },
  { path: '/visualization/data-analysis', zh: '分析页', en: 'Analysis' },
  { path: '/visualization/multi-dimension-data-analysis', zh: '多维数据分析', en: 'Multi-dimension Analysis' },
  { path: '/list/search-table', zh: '查询表格', en: 'Search Table' },
  { path: '/list/card', zh: '卡片列表', en: 'Card List' },
  { path: '/form/step', zh: '分步表单', en: 'Step Form' },
  { path: '/form/group', zh: '分组表单', en: 'Group Form' },
  { path: '/profile/basic', zh: '基础详情页', en: 'Basic Profile' },
  { path: '/result/success', zh: '成功页', en: 'Success' },
  { path: '/result/error', zh: '失败页', en: 'Error' },
  { path: '/exception/403', zh: '403', en: '403' },
  { path: '/exception/404', zh: '404', en: '404' },
  { path: '/exception/500', zh: '500', en: '500' },
  { path: '/user/info', zh: '用户中心', en: 'User Centre' },
  { path: '/user/setting', zh: '用户设置', en: 'User Settings' },
  { path: '/user/notification', zh: '我的消息', en: 'My notifications' },
];

const settle = async (page: Page, lang: 'zh-CN' | 'en-US', theme: 'light' | 'dark') =>
  page.evaluate(
    ([l, t]) => {
      localStorage.setItem('arco-lang', l as string);
      const key = 'atrium-settings';
      const stored = JSON.parse(localStorage.getItem(key) ?? '{"state":{}}');
      stored.state = { ...stored.state, theme: t };
      localStorage.setItem(key, JSON.stringify(stored));
    },
    [lang, theme],
  );

test('every template page opens with real content in Chinese and English, light and dark', async ({ page }) => {
  test.setTimeout(600_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password);
  for (const [lang, theme] of [
    ['zh-CN', 'light'],
    ['en-US', 'dark'],
    ['zh-CN', 'dark'],
    ['en-US', 'light'],
  ] as const) {
    await settle(page, lang, theme);
    for (const p of pages) {
      await page.goto(p.path);
      const main = page.locator('#main-content');
      await expect(main, p.path).toBeVisible();
      if (theme === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
      else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
      // the page's own label in the chosen language (its menu entry, tab or heading)
      await expect(page.getByText(lang === 'zh-CN' ? p.zh : p.en, { exact: true }).first(), `${p.path} ${lang}`).toBeVisible();
      await expect(page.getByText(/即将上线|Coming soon/i)).toHaveCount(0);
      // drawn: no spinner left, no untranslated message key on the page
      await expect(main.locator('.arco-spin-loading')).toHaveCount(0);
      // the page's own code may still be on its way on a busy machine: wait for its text, not for a time
      await expect.poll(async () => (await main.innerText()).trim().length, { message: `${p.path} ${lang} is empty` }).toBeGreaterThan(10);
      const text = await main.innerText();
      expect(text, `${p.path} ${lang}`).not.toMatch(/\b[a-z]+\.[a-z]+[A-Za-z]*\.[a-zA-Z.]+\b/);
      if (lang === 'en-US' && theme === 'dark') {
        await page.screenshot({ path: path.join(shots, `${p.path.slice(1).replaceAll('/', '-')}-en-dark.png`) });
      }
    }
  }
  await page.evaluate(() => {
    localStorage.removeItem('atrium-settings');
    localStorage.setItem('arco-lang', 'zh-CN');
  });
  expect(errors).toEqual([]);
});
