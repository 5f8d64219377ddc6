import { describe, expect, it } from 'vitest';
import * as release from './release';
import { releaseCodes, releaseLabel, releaseLabels } from './release-labels';

// every list of codes the release contract exports (statuses, levels): arrays of UPPER_CASE strings
const exportedCodeLists = (Object.entries(release) as [string, unknown][]).filter(
  (entry): entry is [string, readonly string[]] =>
    Array.isArray(entry[1]) && entry[1].length > 0 && entry[1].every((v) => typeof v === 'string' && /^[A-Z][A-Z_]*$/.test(v)),
);

describe('release codes have words in both languages', () => {
  it('labels every list of codes the release contract exports', () => {
    const labelled = new Set<readonly string[]>(Object.values(releaseCodes));
    // finishedTaskStatuses is a subset of taskStatuses: its codes are labelled there
    const unlabelled = exportedCodeLists.filter(([, list]) => !labelled.has(list) && !list.every((c) => c in releaseLabels.taskStatus));
    expect(unlabelled.map(([name]) => name)).toEqual([]);
    expect(exportedCodeLists.length).toBeGreaterThanOrEqual(4);
  });

  it('has a Chinese and an English label for each code, neither of them the code', () => {
    for (const [kind, codes] of Object.entries(releaseCodes) as [keyof typeof releaseCodes, readonly string[]][]) {
      for (const code of codes) {
        const label = (releaseLabels[kind] as Record<string, { zh: string; en: string } | undefined>)[code];
        expect(label, `${kind}.${code}`).toBeDefined();
        expect(label?.zh, `${kind}.${code}`).toMatch(/\p{Script=Han}/u);
        expect(label?.en, `${kind}.${code}`).not.toBe(code);
        expect(label?.en.length, `${kind}.${code}`).toBeGreaterThan(0);
      }
    }
  });

  it('gives the words in the language asked for, and an unknown code as it is', () => {
    expect(releaseLabel('taskStatus', 'FAILED', 'zh-CN')).toBe('失败');
    expect(releaseLabel('taskStatus', 'FAILED', 'en-US')).toBe('Failed');
    expect(releaseLabel('permissionLevel', 'VIEWER', 'en-US')).toBe('Viewer');
    expect(releaseLabel('taskStatus', 'SOMETHING_NEW', 'en-US')).toBe('SOMETHING_NEW');
  });
});
