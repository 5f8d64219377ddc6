import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  conflictReasons,
  errorCatalogue,
  errorMessage,
  fieldMessage,
  INVALID_LOGIN_CODES,
  pickLanguage,
  validationMessages,
} from './errors';

const han = /\p{Script=Han}/u;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Both languages present, each in its own script, with the same placeholders. */
function expectBilingual(name: string, entry: { zh: string; en: string }) {
  expect(entry.zh.trim(), `${name} zh`).not.toBe('');
  expect(entry.en.trim(), `${name} en`).not.toBe('');
  expect(han.test(entry.zh), `${name}: zh is Chinese`).toBe(true);
  // English may quote a Chinese column header, but is mostly Latin letters
  const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
  expect(count(entry.en, /[A-Za-z]/g), `${name}: en is English`).toBeGreaterThan(count(entry.en, /\p{Script=Han}/gu));
  expect(placeholders(entry.zh), `${name} placeholders`).toEqual(placeholders(entry.en));
}

describe('the error catalogue', () => {
  const entries = Object.entries(errorCatalogue);

  it('has zh-CN and en-US text for every code, with the same placeholders', () => {
    for (const [key, entry] of entries) expectBilingual(key, entry);
  });

  it('gives every code once, and a real HTTP status (200 only for ok)', () => {
    const codes = entries.map(([, e]) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [key, entry] of entries) {
      if (key === 'ok') expect(entry).toMatchObject({ code: 200, status: 200 });
      else expect(entry.status, key).toBeGreaterThanOrEqual(400);
      expect(entry.status, key).toBeLessThan(600);
    }
  });

  it('knows the codes that end a sign-in, each a 401', () => {
    for (const code of INVALID_LOGIN_CODES) {
      expect(entries.find(([, e]) => e.code === code)?.[1].status, String(code)).toBe(401);
    }
  });
});

describe('conflict reasons and validation messages', () => {
  it('are said in both languages with the same placeholders', () => {
    for (const [key, entry] of Object.entries(conflictReasons)) expectBilingual(key, entry);
    for (const [key, entry] of Object.entries(validationMessages)) expectBilingual(key, entry);
  });

  it('explain every message key a contract schema gives its rules', () => {
    // `.regex(pattern, 'chars.alnum')`, `.refine(check, 'password.weak')`, `{ message: 'range.order' }`: the server
    // answers such a rule's key as its sentence only when the catalogue has it (else a bare 'is not valid')
    const dir = new URL('.', import.meta.url);
    const sources = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const keys = new Set<string>();
    for (const file of sources) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const m of text.matchAll(/(?:message:\s*|,\s*)'([a-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9.]*)'\s*[)},]/g)) keys.add(m[1] as string);
    }
    expect(keys.size).toBeGreaterThan(10);
    expect([...keys].filter((key) => !(key in validationMessages))).toEqual([]);
  });

  it('never share a key (a field message looks in both)', () => {
    const shared = Object.keys(conflictReasons).filter((key) => key in validationMessages);
    expect(shared).toEqual([]);
  });
});

describe('messages in the caller language', () => {
  it('picks the language from the first Accept-Language entry; Chinese by default', () => {
    expect(pickLanguage(undefined)).toBe('zh-CN');
    expect(pickLanguage('')).toBe('zh-CN');
    expect(pickLanguage('en-US,en;q=0.9')).toBe('en-US');
    expect(pickLanguage('EN')).toBe('en-US');
    expect(pickLanguage('zh-CN,en;q=0.8')).toBe('zh-CN');
    expect(pickLanguage('fr-FR')).toBe('zh-CN');
  });

  it('fills placeholders it is given and leaves the others visible', () => {
    expect(errorMessage(errorCatalogue.accountLocked, 'en-US', { until: '2026-11-23 12:00' })).toBe(
      'Too many failed sign-ins: the account is locked until 2026-11-23 12:00',
    );
    expect(errorMessage(errorCatalogue.accountLocked, 'zh-CN')).toContain('{until}');
    expect(errorMessage(errorCatalogue.accountLocked, 'en-US', { other: 1 })).toContain('{until}');
  });

  it('turns a field message key into its sentence, and leaves other text as it is', () => {
    expect(fieldMessage('value.tooLong', 'en-US', { max: 20 })).toBe('can be at most 20 characters');
    expect(fieldMessage('value.tooLong', 'zh-CN', { max: 20 })).toBe('最多 20 个字符');
    expect(fieldMessage('dept.hasUsers', 'en-US', { count: 2 })).toBe(
      'The department is used by 2 user(s): move them to another department first',
    );
    expect(fieldMessage('not a key', 'zh-CN')).toBe('not a key');
    // a placeholder value that looks like a placeholder is not filled again
    expect(fieldMessage('ref.missingId', 'en-US', { id: '{id}' })).toBe('no record with id {id}');
  });
});
