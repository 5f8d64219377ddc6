import { describe, expect, it } from 'vitest';
import {
  fillTemplate,
  itemRows,
  parseMarkup,
  renderEscPos,
  renderFeie,
  renderText,
  renderYilianyun,
  textWidth,
  wrap,
} from '../../src/modules/mall/printing/receipt';

const data = {
  shop: '阿克米贸易',
  orderNo: 'XS20261123000001',
  time: '2026-11-23 10:00',
  lines: [
    { name: '乌龙茶 Oolong tea 特级礼盒装 500g', quantity: 2, amount: 2500 },
    { name: 'Cup', quantity: 1, amount: 990 },
  ],
  total: 3490,
  member: '张三',
};

describe('receipt rendering', () => {
  it('counts a CJK character as two columns and never splits one when wrapping', () => {
    expect(textWidth('茶a')).toBe(3);
    expect(wrap('乌龙茶乌龙茶', 5)).toEqual(['乌龙', '茶乌', '龙茶']);
    expect(wrap('abcdef', 4)).toEqual(['abcd', 'ef']);
  });

  it.each([
    [58, 32],
    [80, 48],
  ])('lays %i mm paper out in %i columns, amounts right-aligned', (paper, columns) => {
    const text = renderText(parseMarkup(fillTemplate(null, data, paper)), paper);
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(columns);
    expect(lines).toContain('-'.repeat(columns));
    expect(text).toContain(data.orderNo);
    const rows = itemRows(data.lines, columns);
    // the first line of each item ends in its amount at the right edge
    expect(rows.filter((r) => r.endsWith('25.00') || r.endsWith('9.90')).every((r) => textWidth(r) === columns)).toBe(true);
    // the shop name is centred
    const shop = lines[0] ?? '';
    expect(Math.abs(shop.length - shop.trimStart().length - Math.floor((columns - textWidth(data.shop)) / 2))).toBe(0);
  });

  it('renders ESC/POS with init, UTF-8 text, a QR code of the order number and a cut', () => {
    const bytes = renderEscPos(parseMarkup(fillTemplate(null, data, 58)), 58);
    expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
    expect(bytes.includes(Buffer.from('阿克米贸易', 'utf8'))).toBe(true);
    expect(bytes.includes(Buffer.from([0x1d, 0x28, 0x6b]))).toBe(true);
    expect(bytes.includes(Buffer.from([0x1d, 0x56, 0x42, 0x00]))).toBe(true);
    expect(renderEscPos(parseMarkup('x'), 58, 2).length).toBe(2 * renderEscPos(parseMarkup('x'), 58, 1).length);
  });

  it("renders each vendor's markup from the same blocks", () => {
    const blocks = parseMarkup(fillTemplate(null, data, 58));
    expect(renderFeie(blocks, 58)).toContain(`<QR>${data.orderNo}</QR>`);
    expect(renderFeie(blocks, 58)).toContain('<C><B>阿克米贸易</B></C>');
    expect(renderYilianyun(blocks, 58)).toContain('<center><FB>阿克米贸易</FB></center>');
  });

  it('fills a template of its own and keeps values from adding markup', () => {
    const markup = fillTemplate('<C>{shop}</C>\n{orderNo}\n<CUT>', { ...data, shop: '<QR>x</QR>' }, 58);
    expect(parseMarkup(markup)[0]).toEqual({ type: 'text', align: 'center', bold: false, text: ' QR x /QR ' });
  });
});
