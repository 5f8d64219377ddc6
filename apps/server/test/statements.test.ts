import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../src/crud/query';
import { walkPays } from '../src/crud/statements';

describe('walkPays: a prefix page walked in list order or found through the prefix index', () => {
  it('walks for a common prefix near the start, and uses the index for a rare one, a deep page or no match', () => {
    // 100,000 users, a surname 1 in 25 of them have: page 1 walks about 500 rows, the index would read 4,000
    expect(walkPays({ matches: 4_000, rows: 100_000, reach: 20 })).toBe(true);
    // page 2,000 of it would walk every row
    expect(walkPays({ matches: 4_000, rows: 100_000, reach: 40_000 })).toBe(false);
    // 50 matches: the walk would read 40,000 rows for page 1
    expect(walkPays({ matches: 50, rows: 100_000, reach: 20 })).toBe(false);
    expect(walkPays({ matches: 0, rows: 100_000, reach: 20 })).toBe(false);
    // a small tenant walks either way
    expect(walkPays({ matches: 60, rows: 200, reach: 20 })).toBe(true);
  });
});

describe('isoTimestamp: what PostgreSQL sends for a timestamptz, as Date#toISOString writes it', () => {
  it('rewrites the UTC text without a Date and agrees with a Date on every other shape', () => {
    for (const sent of [
      '2026-11-29 03:13:03.105999+00',
      '2026-11-29 03:13:03.1+00',
      '2026-11-29 03:13:03+00',
      '2026-01-02 23:59:59.999999+00',
      '2026-11-29 03:13:03.5+05:30',
      '2026-11-29 03:13:03-03',
      '0999-01-01 00:00:00+00',
      '2026-11-29T03:13:03.105Z',
      '2026-11-29 03:13+00',
    ])
      expect(isoTimestamp(sent), sent).toBe(new Date(sent).toISOString());
    expect(isoTimestamp('2026-11-29 03:13:03.105999+00')).toBe('2026-11-29T03:13:03.105Z');
    expect(isoTimestamp(new Date(Date.UTC(2026, 10, 29, 3, 13, 3, 105)))).toBe('2026-11-29T03:13:03.105Z');
  });
});
