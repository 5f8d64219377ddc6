import type { FieldMeta } from '@atrium/contracts/entity';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { cellOf } from './fields';

// Money is integer fen in the API (contracts' moneySchema); a generic list shows it as every page does (locale/money).
describe('a money field of a generic list', () => {
  it('has the yuan sign, grouping and two decimals; an empty one a dash', () => {
    const price = { field: 'price', label: 'erp.product.price', widget: 'money' } as FieldMeta;
    const t = ((key: string) => key) as TFunction;
    expect(cellOf(price, 123_45, t)).toBe('¥123.45');
    expect(cellOf(price, 105_400, t)).toBe('¥1,054.00');
    expect(cellOf(price, 0, t)).toBe('¥0.00');
    expect(cellOf(price, null, t)).toBe('—');
  });
});
