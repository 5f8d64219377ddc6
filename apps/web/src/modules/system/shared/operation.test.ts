import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectMessages } from '../../../locale/registry';
import { zhCN } from '../../../locale/zh-CN';
import { actionLabel, moduleLabel } from './operation';

describe('an operation said in words', () => {
  beforeAll(async () => {
    await i18next.init({ lng: 'zh-CN', resources: { 'zh-CN': { translation: zhCN } }, keySeparator: false, nsSeparator: false });
    connectMessages((lang, bundle) => i18next.addResources(lang, 'translation', bundle));
  });

  it('names the module by its menu entry, the dashed release ones too', () => {
    expect(moduleLabel('system:user')).toBe('menu.system.user');
    expect(moduleLabel('release:user-project')).toBe('menu.release.userProject');
    expect(moduleLabel('nothing:known')).toBe('nothing:known');
    expect(moduleLabel('user:token')).toBe('menu.user.token');
  });

  it('says an HTTP method recorded as the action as the same words as the other routes', () => {
    expect(actionLabel('put')).toBe('修改');
    expect(actionLabel('post')).toBe('新建');
    expect(actionLabel('update')).toBe('修改');
    expect(actionLabel('resetPwd')).toBe('重置密码');
    expect(actionLabel('revokeToken')).toBe('吊销 API 令牌');
  });
});
