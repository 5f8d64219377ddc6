import { expect as baseExpect, type Page, test } from '@playwright/test';
import { demoAccounts, signIn } from './support/auth';

// the machine these run on is shared and often loaded: wait longer than the default, assert the same
const expect = baseExpect.configure({ timeout: 30_000 });

const setLanguage = (page: Page, lang: 'zh-CN' | 'en-US') => page.evaluate((l) => localStorage.setItem('arco-lang', l), lang);
const item = (page: Page, label: string) => page.locator('.arco-form-item').filter({ has: page.getByText(label, { exact: true }) });

test('the step, group and user-setting pages open in both languages and in dark mode', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password);
  const pages = [
    { path: '/form/step', zh: '选择基本信息', en: 'Basic information' },
    { path: '/form/group', zh: '视频参数', en: 'Video parameters' },
    { path: '/user/setting', zh: '安全设置', en: 'Security' },
  ];
  for (const lang of ['zh-CN', 'en-US'] as const) {
    await setLanguage(page, lang);
    for (const p of pages) {
      await page.goto(p.path);
      await expect(
        page
          .locator('#main-content')
          .getByText(lang === 'zh-CN' ? p.zh : p.en, { exact: true })
          .first(),
      ).toBeVisible();
      await expect(page.getByText(/即将上线|Coming soon/i)).toHaveCount(0);
    }
  }
  await setLanguage(page, 'zh-CN');
  await page.evaluate(() => {
    const key = 'atrium-settings';
    const stored = JSON.parse(localStorage.getItem(key) ?? '{"state":{}}');
    stored.state = { ...stored.state, theme: 'dark' };
    localStorage.setItem(key, JSON.stringify(stored));
  });
  await page.goto('/form/group');
  await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
  await expect(page.getByText('视频参数', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'artifacts/group-form-dark.png' });
  await page.evaluate(() => localStorage.removeItem('atrium-settings'));
});

test('step form: errors per step that clear when corrected, then a saved record on the finish step', async ({ page }) => {
  test.setTimeout(300_000);
  const name = `上新${Date.now().toString(36).slice(-6)}`;
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password);
  await page.goto('/form/step');

  await page.getByRole('button', { name: '下一步' }).click();
  await expect(item(page, '活动名称')).toContainText('活动名称不能为空');
  await item(page, '活动名称').locator('input').fill('spring sale!');
  await page.getByRole('button', { name: '下一步' }).click();
  await expect(item(page, '活动名称')).toContainText('活动名称格式不正确');
  await item(page, '活动名称').locator('input').fill(name);
  await expect(item(page, '活动名称')).not.toContainText('格式不正确');

  await item(page, '推广时间').locator('input').click();
  await page
    .locator('.arco-picker-container')
    .getByRole('button', { name: /此刻|Now/ })
    .click();
  await page
    .locator('.arco-picker-container')
    .getByRole('button', { name: /确定|OK/ })
    .click();
  await item(page, '推广地址').locator('input').fill('ftp://example.com');
  await page.getByRole('button', { name: '下一步' }).click();
  await expect(item(page, '推广地址')).toContainText('推广地址格式不正确');
  await item(page, '推广地址').locator('input').fill('https://shop.example.com/spring');
  await expect(item(page, '推广地址')).not.toContainText('格式不正确');
  await page.getByRole('button', { name: '下一步' }).click();

  await item(page, '广告来源').locator('input').fill('newsletter');
  await item(page, '广告媒介').locator('input').fill('email');
  const keyword = item(page, '关键词').locator('input');
  await keyword.fill('春茶');
  await keyword.press('Enter');
  await item(page, '广告内容').locator('textarea').fill('字'.repeat(201));
  await page.getByRole('button', { name: '提交' }).click();
  await expect(item(page, '广告内容')).toContainText('广告内容最多 200 字');
  await item(page, '广告内容').locator('textarea').fill('新茶上市，欢迎品尝');
  await expect(item(page, '广告内容')).not.toContainText('最多 200 字');
  await page.getByRole('button', { name: '提交' }).click();

  await expect(page.getByText('创建成功', { exact: true }).first()).toBeVisible();
  await expect(page.locator('.arco-result')).toContainText(name);
  await expect(page.locator('.arco-table')).toContainText(name);
  await page.getByRole('button', { name: '再次创建' }).click();
  await expect(item(page, '活动名称').locator('input')).toHaveValue('');
});

test('group form: the rate rule shows in the page, a valid set is saved and read back', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password);
  await page.goto('/form/group');
  const rate = (label: string) => item(page, label).locator('input');
  await rate('编码码率最大值').fill('1500');
  await rate('编码码率默认值').fill('1700');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(item(page, '编码码率默认值')).toContainText('默认值须在最小值与最大值之间');
  await rate('编码码率默认值').fill('1200');
  await expect(item(page, '编码码率默认值')).not.toContainText('默认值须在');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('参数已保存')).toBeVisible();
  await page.reload();
  await expect(rate('编码码率默认值')).toHaveValue('1200');
  await expect(page.getByText(/acme 于 .* 保存/)).toBeVisible();
});

test('user settings: required fields are named, saved values are read back, the e-mail is not changed here', async ({ page }) => {
  test.setTimeout(300_000);
  const nickname = `Acme${Date.now().toString(36).slice(-4)}`;
  await signIn(page, demoAccounts.acme.account, demoAccounts.acme.password);
  await page.goto('/user/setting');
  const field = (label: string) => item(page, label).locator('input, textarea').first();
  await field('昵称').fill('');
  await field('所在区域').fill('');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(item(page, '昵称')).toContainText('昵称不能为空');
  await expect(item(page, '所在区域')).toContainText('所在区域不能为空');
  await field('昵称').fill(nickname);
  await expect(item(page, '昵称')).not.toContainText('不能为空');
  // the e-mail (sign-in and password recovery) changes under Security, with the current password
  await expect(field('邮箱')).toBeDisabled();
  await expect(field('邮箱')).not.toHaveValue('');
  await expect(item(page, '邮箱')).toContainText('安全设置');
  await field('国家/地区').fill('中国');
  await field('所在区域').fill('杭州');
  await field('个人简介').fill('喜欢喝茶');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('设置已保存')).toBeVisible();
  await page.reload();
  await expect(field('昵称')).toHaveValue(nickname);
  await expect(field('所在区域')).toHaveValue('杭州');
});

test('search table and card list: real rows, a filter, and a service action with its confirm', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, demoAccounts.admin.account, demoAccounts.admin.password);
  await page.goto('/list/search-table');
  const table = page.locator('.crud-page');
  await expect(table.locator('tr.arco-table-tr').nth(3)).toBeVisible();
  await expect(table).toContainText(/共 \d{3} 条/);
  await expect(page.getByText(/即将上线/)).toHaveCount(0);

  await page.goto('/list/card');
  const cards = page.locator('.service-card');
  await expect(cards.first()).toBeVisible();
  await page.locator('.card-list-toolbar').getByText('规则预置', { exact: true }).click();
  await expect(cards).toHaveCount(4);
  await expect(page.locator('.service-card').filter({ hasText: '内容质检' })).toHaveCount(0);
  const expired = cards.filter({ hasText: '已过期' }).first();
  await expect(expired).toBeVisible();
  const name = (await expired.locator('.arco-typography').first().textContent()) ?? '';
  await expired.getByRole('button', { name: '续费一年' }).click();
  await page
    .locator('.arco-popconfirm')
    .getByRole('button', { name: /确定|OK/ })
    .click();
  await expect(page.getByText(`已为“${name}”续费`)).toBeVisible();
  await expect(cards.filter({ hasText: name })).toContainText('已续费');
});
