import { type CodeKind, codeLabels, type Label, labelledCodes } from '@atrium/contracts/labels';
import { describe, expect, it } from 'vitest';
import { enUS } from './en-US';
import { zhCN } from './zh-CN';

/**
 * Strings of the app that are the words of a code (`erp.sale.status.draft`), by key prefix and the kind
 * of the contracts' label registry they repeat: the CRUD manifests and the pages still name them by key.
 * Each must say what the registry says, so a code reads the same on every page and in every export.
 */
const wordsOfCodes: [prefix: string, kind: CodeKind][] = [
  ['status', 'status'],
  ['system.user.sex', 'sex'],
  ['erp.member.sex', 'sex'],
  ['system.user.userType', 'userType'],
  ['workplace.userType', 'userType'],
  ['system.role.dataScope', 'dataScope'],
  ['system.menu.type', 'menuType'],
  ['system.operlog.result', 'auditResult'],
  ['system.loginlog.result', 'loginResult'],
  ['notification.type', 'notificationType'],
  ['notice.scope', 'noticeScope'],
  ['erp.sale.status', 'saleStatus'],
  ['erp.activity.type', 'activityType'],
  ['erp.activity.status', 'activityStatus'],
  ['erp.ledger.kind', 'ledgerKind'],
  ['mall.printer.vendor', 'printerVendor'],
  ['mall.printer.kind', 'printerKind'],
  ['mall.printer.trigger', 'printTrigger'],
  ['mall.printer.state', 'printerState'],
  ['mall.printJob.status', 'printJobStatus'],
  ['analysis.granularity', 'analysisGranularity'],
  ['approval.stage', 'approvalStage'],
  ['approval.result', 'approvalResult'],
  ['cert.accountType', 'certificationAccountType'],
  ['cert.certificateType', 'certificateType'],
  ['cert.status', 'certificationStatus'],
  ['stepForm.channelType', 'channelType'],
];

async function bundles(): Promise<{ zh: Record<string, string>; en: Record<string, string> }> {
  const holder = globalThis as { __atriumMessages?: { pending: [string, Record<string, string>][] } };
  holder.__atriumMessages ??= { pending: [] };
  await Promise.all([
    import('../crud/messages'),
    import('../realtime/messages'),
    import('../modules/dashboard/messages'),
    import('../modules/erp/messages'),
    import('../modules/form/messages'),
    import('../modules/mall/messages'),
    import('../modules/realtime/messages'),
    import('../modules/release/messages'),
    import('../modules/staging/messages'),
    import('../modules/system/shared/messages'),
    import('../modules/system/shared/messages-admin'),
    import('../modules/user/messages'),
    import('../modules/visualization/messages'),
  ]);
  const zh: Record<string, string> = { ...zhCN };
  const en: Record<string, string> = { ...enUS };
  for (const [lang, bundle] of holder.__atriumMessages.pending) Object.assign(lang === 'zh-CN' ? zh : en, bundle);
  return { zh, en };
}

describe("the app's words for codes are the label registry's", () => {
  it('says for each code what the contracts say, in both languages', async () => {
    const { zh, en } = await bundles();
    const differ: string[] = [];
    for (const [prefix, kind] of wordsOfCodes) {
      let found = 0;
      for (const code of labelledCodes[kind]) {
        const key = `${prefix}.${code}`;
        const label = (codeLabels[kind] as Record<string, Label>)[code] as Label;
        if (!(key in zh) && !(key in en)) continue;
        found += 1;
        if (zh[key] !== label.zh) differ.push(`${key}: ${zh[key]} ≠ ${label.zh}`);
        if (en[key] !== label.en) differ.push(`${key}: ${en[key]} ≠ ${label.en}`);
      }
      // the prefix is still how the app names these words
      expect(found, prefix).toBeGreaterThan(0);
    }
    expect(differ).toEqual([]);
  });
});
