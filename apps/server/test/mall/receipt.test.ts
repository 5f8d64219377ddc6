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

  it('prints user data as printable text only: a drawer kick and a cut in a member or item name reach the printer as neither', () => {
    const kick = '\x1bp\x00\x19\xfa';
    const cut = '\x1dVB\x00';
    const hostile = {
      ...data,
      shop: `Shop${kick}`,
      title: `T\x9b2J${cut}`,
      lines: [{ name: `Tea${cut}\n<CUT>\u2028x`, quantity: 1, amount: 100 }],
      member: `Zhang${kick}${cut}\x07\x7f`,
    };
    const markup = fillTemplate(null, hostile, 58);
    expect([...markup].filter((c) => c !== '\n' && /[\p{Cc}\u2028]/u.test(c))).toEqual([]);
    expect(markup.split('\n').filter((l) => l === '<CUT>')).toHaveLength(1);
    const bytes = renderEscPos(parseMarkup(markup), 58);
    const count = (needle: number[]) => {
      let n = 0;
      for (let at = bytes.indexOf(Buffer.from(needle)); at >= 0; at = bytes.indexOf(Buffer.from(needle), at + 1)) n++;
      return n;
    };
    expect(count([0x1b, 0x70])).toBe(0); // ESC p: the drawer kick
    expect(count([0x1d, 0x56])).toBe(1); // GS V: the template's own cut only
    expect(count([0x07])).toBe(0);
    // a template's own control bytes go the same way; markup written straight to the renderer too
    expect(fillTemplate(`<C>{member}${kick}</C>`, data, 58)).toBe('<C>张三  ú</C>');
    expect(renderEscPos(parseMarkup(`x${kick}`), 58).includes(Buffer.from([0x1b, 0x70]))).toBe(false);
  });
});
