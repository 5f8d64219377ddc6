/**
 * The one internal receipt markup and its renderings. A template is lines of text; a line may be
 * wrapped in one tag — `<C>` centred, `<RIGHT>` right-aligned, `<B>` bold, `<QR>` a QR code of its
 * text — or be `<HR>` (a rule) or `<CUT>`. `{name}` placeholders are filled from the receipt's values;
 * `{lines}` expands to the item rows. 58 mm paper has 32 columns, 80 mm 48; a CJK character takes two.
 */

export type ReceiptLine = { name: string; quantity: number; amount: number };
export type ReceiptData = {
  shop: string;
  orderNo: string;
  time: string;
  lines: ReceiptLine[];
  /** fen */
  total: number;
  member: string | null;
  title?: string;
};

export type Block =
  | { type: 'text'; align: 'left' | 'center' | 'right'; bold: boolean; text: string }
  | { type: 'rule' }
  | { type: 'qr'; data: string }
  | { type: 'cut' };

export const DEFAULT_TEMPLATE = [
  '<C><B>{shop}</B></C>',
  '<C>{title}</C>',
  '单号 No. {orderNo}',
  '时间 Time {time}',
  '<HR>',
  '{lines}',
  '<HR>',
  '<RIGHT>合计 Total {total}</RIGHT>',
  '会员 Member {member}',
  '<QR>{orderNo}</QR>',
  '<CUT>',
].join('\n');

// an ESC/POS command introducer (ESC, FS, GS, DLE) with the command byte after it, then any other C0 or
// C1 control, DEL, and the Unicode line and paragraph separators
// biome-ignore lint/suspicious/noControlCharactersInRegex: control bytes are what this removes
const COMMAND = /[\x10\x1b\x1c\x1d][\s\S]?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control bytes are what this removes
const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;

/**
 * Text as a printer may receive it: printable characters only. An ESC/POS command (drawer kick, cut,
 * code page…) in a name loses its introducer and command byte, every other control becomes a space (a
 * tab or line break included: a value stays on its line). Applied to every piece of user data on a
 * receipt (fillTemplate) and again to all text the ESC/POS rendering writes.
 */
export function printable(text: string): string {
  return text.replace(COMMAND, '').replace(CONTROL, ' ');
}

/** A value from user data: printable, and without the markup's angle brackets (a value adds no tags). */
const valueText = (text: string) => printable(text).replace(/[<>]/g, ' ');

export function columnsOf(paperWidth: number): number {
  return paperWidth >= 80 ? 48 : 32;
}

/** Columns a character takes on a receipt: two for East Asian wide and full-width characters. */
export function charWidth(ch: string): number {
  const c = ch.codePointAt(0) ?? 0;
  if (c < 0x1100) return 1;
  return (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x20000 && c <= 0x3fffd)
    ? 2
    : 1;
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/** Splits text into pieces of at most `width` columns, never splitting a wide character. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch);
    if (used + w > width) {
      out.push(line);
      line = '';
      used = 0;
    }
    line += ch;
    used += w;
  }
  if (line || out.length === 0) out.push(line);
  return out;
}

const pad = (text: string, width: number, side: 'left' | 'right') => {
  const gap = ' '.repeat(Math.max(0, width - textWidth(text)));
  return side === 'left' ? gap + text : text + gap;
};

export const yuan = (fen: number) => (fen / 100).toFixed(2);

/** Item rows: the name wraps in its own column; quantity and amount stay right-aligned on its first line. */
export function itemRows(lines: ReceiptLine[], columns: number): string[] {
  const qtyWidth = columns >= 48 ? 8 : 5;
  const amountWidth = columns >= 48 ? 12 : 9;
  const nameWidth = columns - qtyWidth - amountWidth;
  const rows = [pad('品名 Item', nameWidth, 'right') + pad('数量', qtyWidth, 'left') + pad('金额', amountWidth, 'left')];
  for (const l of lines) {
    const names = wrap(valueText(l.name), nameWidth);
    names.forEach((piece, i) => {
      rows.push(
        i === 0
          ? pad(piece, nameWidth, 'right') + pad(String(l.quantity), qtyWidth, 'left') + pad(yuan(l.amount), amountWidth, 'left')
          : piece,
      );
    });
  }
  return rows;
}

/** The template with its placeholders filled and `{lines}` expanded: the job's markup, one block a line. */
export function fillTemplate(template: string | null | undefined, data: ReceiptData, paperWidth: number): string {
  const columns = columnsOf(paperWidth);
  const values: Record<string, string> = {
    shop: data.shop,
    title: data.title ?? '销售单 Sales order',
    orderNo: data.orderNo,
    time: data.time,
    total: yuan(data.total),
    member: data.member ?? '-',
  };
  const out: string[] = [];
  for (const raw of (template?.trim() ? template : DEFAULT_TEMPLATE).split(/\r?\n/)) {
    // the template is the tenant's text too: printable, its tags kept
    const line = printable(raw).trim();
    if (line === '{lines}') out.push(...itemRows(data.lines, columns));
    // values never carry markup, line breaks or printer commands of their own
    else out.push(line.replace(/\{(\w+)\}/g, (whole, name: string) => valueText(values[name] ?? whole)));
  }
  return out.join('\n');
}

/** A job's markup as blocks. */
export function parseMarkup(markup: string): Block[] {
  const blocks: Block[] = [];
  for (const raw of markup.split('\n')) {
    const line = raw.trimEnd();
    if (line === '<HR>') blocks.push({ type: 'rule' });
    else if (line === '<CUT>') blocks.push({ type: 'cut' });
    else if (line === '<BR>') blocks.push({ type: 'text', align: 'left', bold: false, text: '' });
    else {
      const qr = /^<QR>(.*)<\/QR>$/.exec(line);
      if (qr) {
        blocks.push({ type: 'qr', data: qr[1] ?? '' });
        continue;
      }
      let text = line;
      let align: 'left' | 'center' | 'right' = 'left';
      let bold = false;
      for (;;) {
        const m = /^<(C|RIGHT|B)>(.*)<\/\1>$/.exec(text);
        if (!m) break;
        if (m[1] === 'C') align = 'center';
        else if (m[1] === 'RIGHT') align = 'right';
        else bold = true;
        text = m[2] ?? '';
      }
      blocks.push({ type: 'text', align, bold, text });
    }
  }
  return blocks;
}

/** Plain text, `columns` wide: what a receipt shows (a QR code as its content in brackets). */
export function renderText(blocks: Block[], paperWidth: number): string {
  const columns = columnsOf(paperWidth);
  const out: string[] = [];
  for (const b of blocks) {
    if (b.type === 'rule') out.push('-'.repeat(columns));
    else if (b.type === 'cut') continue;
    else if (b.type === 'qr') out.push(centre(`[QR ${b.data}]`, columns));
    else
      for (const piece of wrap(b.text, columns)) {
        out.push(b.align === 'center' ? centre(piece, columns) : b.align === 'right' ? pad(piece, columns, 'left') : piece);
      }
  }
  return `${out.map((l) => l.replace(/\s+$/, '')).join('\n')}\n`;
}

function centre(text: string, columns: number) {
  const left = Math.max(0, Math.floor((columns - textWidth(text)) / 2));
  return ' '.repeat(left) + text;
}

const ESC = 0x1b;
const GS = 0x1d;
const FS = 0x1c;

/**
 * ESC/POS bytes: text in UTF-8 (selected with `FS ( C`, which current Epson-compatible printers
 * understand), alignment, bold, a native QR code (`GS ( k`) and a partial cut.
 */
export function renderEscPos(blocks: Block[], paperWidth: number, copies = 1): Buffer {
  const columns = columnsOf(paperWidth);
  const parts: Buffer[] = [];
  const bytes = (...b: number[]) => parts.push(Buffer.from(b));
  // whatever the markup holds, only printable text reaches the printer between the commands written here
  const text = (s: string) => parts.push(Buffer.from(printable(s.replace(/\n$/, '')) + (s.endsWith('\n') ? '\n' : ''), 'utf8'));
  for (let copy = 0; copy < copies; copy++) {
    bytes(ESC, 0x40); // initialise
    bytes(FS, 0x28, 0x43, 0x02, 0x00, 0x30, 0x02); // character encoding: UTF-8
    for (const b of blocks) {
      if (b.type === 'rule') {
        bytes(ESC, 0x61, 0);
        text(`${'-'.repeat(columns)}\n`);
      } else if (b.type === 'cut') {
        bytes(0x0a, 0x0a, 0x0a, GS, 0x56, 0x42, 0x00);
      } else if (b.type === 'qr') {
        const data = Buffer.from(printable(b.data), 'utf8');
        const len = data.length + 3;
        bytes(ESC, 0x61, 1);
        bytes(GS, 0x28, 0x6b, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00); // model 2
        bytes(GS, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43, 0x06); // module size 6
        bytes(GS, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x45, 0x31); // error correction M
        bytes(GS, 0x28, 0x6b, len & 0xff, len >> 8, 0x31, 0x50, 0x30);
        parts.push(data);
        bytes(GS, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30); // print it
        bytes(0x0a);
      } else {
        bytes(ESC, 0x61, b.align === 'center' ? 1 : b.align === 'right' ? 2 : 0);
        bytes(ESC, 0x45, b.bold ? 1 : 0);
        for (const piece of wrap(b.text, columns)) text(`${piece}\n`);
        if (b.bold) bytes(ESC, 0x45, 0);
      }
    }
  }
  return Buffer.concat(parts);
}

/** Feie's markup (also Xprinter's): `<C>`, `<RIGHT>`, `<B>`, `<QR>`, `<BR>`, `<CUT>`. */
export function renderFeie(blocks: Block[], paperWidth: number): string {
  const columns = columnsOf(paperWidth);
  return blocks
    .map((b) => {
      if (b.type === 'rule') return `${'-'.repeat(columns)}<BR>`;
      if (b.type === 'cut') return '<CUT>';
      if (b.type === 'qr') return `<QR>${b.data}</QR>`;
      let t = b.bold ? `<B>${b.text}</B>` : b.text;
      if (b.align === 'center') t = `<C>${t}</C>`;
      else if (b.align === 'right') t = `<RIGHT>${t}</RIGHT>`;
      return b.align === 'center' ? t : `${t}<BR>`;
    })
    .join('');
}

/** Yilianyun's markup: `<center>`, `<right>`, `<FB>` (bold), `<QR>`, newlines; it cuts by itself. */
export function renderYilianyun(blocks: Block[], paperWidth: number): string {
  const columns = columnsOf(paperWidth);
  return blocks
    .map((b) => {
      if (b.type === 'rule') return `${'-'.repeat(columns)}\n`;
      if (b.type === 'cut') return '';
      if (b.type === 'qr') return `<QR>${b.data}</QR>\n`;
      let t = b.bold ? `<FB>${b.text}</FB>` : b.text;
      if (b.align === 'center') t = `<center>${t}</center>`;
      else if (b.align === 'right') t = `<right>${t}</right>`;
      return `${t}\n`;
    })
    .join('');
}
