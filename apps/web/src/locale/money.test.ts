import { describe, expect, it } from 'vitest';
import { formatMoney, formatYuan, yuanOf } from './money';

// Money is integer fen in the API (contracts' moneySchema); every page shows it through formatMoney.
describe('money on screen', () => {
  it('is yuan with the sign, thousands grouped and two decimals', () => {
    expect(formatMoney(0)).toBe('¥0.00');
    expect(formatMoney(1)).toBe('¥0.01');
    expect(formatMoney(10)).toBe('¥0.10');
    expect(formatMoney(1999)).toBe('¥19.99');
    expect(formatMoney(100_000)).toBe('¥1,000.00');
    expect(formatMoney(105_400)).toBe('¥1,054.00');
    expect(formatMoney(123_456_789)).toBe('¥1,234,567.89');
    expect(formatMoney(-350)).toBe('-¥3.50');
  });

  it('is exact for every fen amount, where a float of yuan would drift', () => {
    // 1.005 yuan as a float rounds to 1.00; 1005 fen is 10.05 exactly
    for (const fen of [5, 105, 1005, 10_005, 123_456_789, 100_000_000_000]) {
      const text = formatMoney(fen);
      expect(text).toMatch(/^¥[\d,]+\.\d\d$/);
      expect(Number(text.replace(/[¥,.]/g, ''))).toBe(fen);
    }
  });

  it('shows a dash for no amount, not ¥0.00', () => {
    expect(formatMoney(null)).toBe('—');
    expect(formatMoney(undefined)).toBe('—');
  });

  it('charts plot yuan and label them the same way', () => {
    expect(yuanOf(123_45)).toBe(123.45);
    expect(formatYuan(1000)).toBe('¥1,000.00');
    expect(formatYuan(0.1 + 0.2)).toBe('¥0.30');
  });
});
