import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatClock, formatClockSeconds, formatDate, formatDateTime, formatDateTimeSeconds, formatRelative } from './datetime';

// vitest.setup.ts pins the zone to Asia/Shanghai (UTC+8 all year)
const instant = '2026-11-23T03:55:59.900Z'; // 11:55:59 in Shanghai

describe('date and time formatting', () => {
  it('runs in the pinned time zone', () => {
    expect(new Date(instant).getTimezoneOffset()).toBe(-480);
  });

  it('shows an instant in the local zone, with the same digits in every language', () => {
    expect(formatDate(instant)).toBe('2026-11-23');
    expect(formatDateTime(instant)).toBe('2026-11-23 11:55');
    // seconds are cut, not rounded up to the next minute
    expect(formatDateTimeSeconds(instant)).toBe('2026-11-23 11:55:59');
  });

  it('labels a chart axis with the local clock, not the UTC one the API sends', () => {
    expect(formatClock(instant)).toBe('11:55');
    expect(formatClockSeconds(instant)).toBe('11:55:59');
    expect(formatClock(null)).toBe('—');
  });

  it('moves an instant near midnight UTC to the local day', () => {
    expect(formatDate('2026-11-23T16:30:00Z')).toBe('2026-11-24');
    expect(formatDateTime('2026-12-31T16:00:00Z')).toBe('2027-01-01 00:00');
  });

  it('honours an explicit offset in the value', () => {
    expect(formatDateTime('2026-11-23T11:55:00+08:00')).toBe('2026-11-23 11:55');
    expect(formatDateTime('2026-11-23T11:55:00-05:00')).toBe('2026-11-24 00:55');
  });

  it('keeps a calendar date on its day (no shift through UTC)', () => {
    expect(formatDate('2026-11-23')).toBe('2026-11-23');
    expect(formatDateTime('2026-11-23')).toBe('2026-11-23 00:00');
  });

  it('takes epoch milliseconds and Date objects; 0 is a time, not "empty"', () => {
    expect(formatDateTime(0)).toBe('1970-01-01 08:00');
    expect(formatDateTimeSeconds(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02 11:04:05');
    expect(formatDate(new Date(Date.UTC(2026, 5, 30, 20)))).toBe('2026-07-01');
  });

  it('shows a dash for a missing or unreadable value', () => {
    for (const value of [null, undefined, '', 'not a date', Number.NaN]) {
      expect(formatDate(value)).toBe('—');
      expect(formatDateTime(value)).toBe('—');
      expect(formatDateTimeSeconds(value)).toBe('—');
      expect(formatRelative(value)).toBe('—');
    }
  });
});

describe('relative times', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  const ago = (seconds: number) => now - seconds * 1000;

  beforeAll(async () => {
    await i18next.init({ lng: 'en-US', resources: {} });
  });
  afterAll(async () => {
    await i18next.changeLanguage('zh-CN');
  });

  it('picks the largest whole unit', () => {
    expect(formatRelative(ago(0), now)).toBe('now');
    expect(formatRelative(ago(59), now)).toBe('59 seconds ago');
    expect(formatRelative(ago(3 * 60), now)).toBe('3 minutes ago');
    // 1 h 59 min is still "1 hour": whole units, never rounded up
    expect(formatRelative(ago(2 * 3600 - 60), now)).toBe('1 hour ago');
    expect(formatRelative(ago(5 * 86_400), now)).toBe('5 days ago');
    expect(formatRelative(ago(2 * 365 * 86_400), now)).toBe('2 years ago');
  });

  it('speaks of the future too, and uses words for ±1 day', () => {
    expect(formatRelative(now + 10 * 60_000, now)).toBe('in 10 minutes');
    expect(formatRelative(ago(86_400), now)).toBe('yesterday');
    expect(formatRelative(now + 86_400_000, now)).toBe('tomorrow');
  });

  it("follows the app's language, not the machine's", async () => {
    await i18next.changeLanguage('zh-CN');
    expect(formatRelative(ago(3 * 60), now)).toBe('3分钟前');
    await i18next.changeLanguage('en-US');
    expect(formatRelative(ago(3 * 60), now)).toBe('3 minutes ago');
  });
});
