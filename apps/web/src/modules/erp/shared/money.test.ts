import type { FieldMeta } from '@atrium/contracts/entity';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { yuan as analysisYuan } from '../../visualization/useAnalysis';
import { cellOf } from './fields';
import { yuan } from './widgets';

// Money is integer fen in the API (contracts' moneySchema); screens show yuan with two decimals.
describe('fen shown as yuan', () => {
  it('divides by 100 and always shows two decimals', () => {
    expect(yuan(0)).toBe('0.00');
    expect(yuan(1)).toBe('0.01');
    expect(yuan(10)).toBe('0.10');
    expect(yuan(1999)).toBe('19.99');
    expect(yuan(250_000)).toBe('2500.00');
  });

  it('is exact for every fen amount, where a float of yuan would drift', () => {
    // 1.005 yuan as a float rounds to 1.00; 1005 fen is 10.05 exactly
    for (const fen of [5, 105, 1005, 10_005, 123_456_789, 100_000_000_000]) {
      const text = yuan(fen);
      expect(text).toMatch(/^\d+\.\d\d$/);
      expect(Number(text.replace('.', ''))).toBe(fen);
    }
  });

  it('shows a dash for no amount, not 0.00', () => {
    expect(yuan(null)).toBe('—');
    expect(yuan(undefined)).toBe('—');
  });

  it('a money cell of a generic list has the yuan sign; an empty one a dash', () => {
    const price = { field: 'price', label: 'erp.product.price', widget: 'money' } as FieldMeta;
    const t = ((key: string) => key) as TFunction;
    expect(cellOf(price, 123_45, t)).toBe('¥123.45');
    expect(cellOf(price, 0, t)).toBe('¥0.00');
    expect(cellOf(price, null, t)).toBe('—');
  });

  it('the analysis charts take yuan as numbers', () => {
    expect(analysisYuan(123_45)).toBe(123.45);
    expect(analysisYuan(0)).toBe(0);
  });
});
