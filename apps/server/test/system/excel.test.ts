import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { formatTime } from '../../src/crud/excel';
import { MAX_ROWS } from '../../src/modules/system/user/user.import';
import { type buildTestApp, engines, suiteApp } from '../helper';
import { type Caller, signIn } from './api';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sheet(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('users');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The same workbook with its first part declaring `size` bytes once inflated (a zip bomb's signature). */
function declaring(file: Buffer, size: number): Buffer {
  const copy = Buffer.from(file);
  const end = copy.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  copy.writeUInt32LE(size, copy.readUInt32LE(end + 16) + 24);
  return copy;
}

type Part = { name: string; data: Buffer; crc: number; size: number; claimed?: number };

/**
 * The fields a local and a central header have alike, from "version needed" to the name's length: at 4
 * in a local header, at 6 in a central one (after "version made by").
 */
function sharedFields(header: Buffer, at: number, part: Part, size: number, nameLength: number) {
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(8, at + 4);
  header.writeUInt32LE(part.crc, at + 10);
  header.writeUInt32LE(part.data.length, at + 14);
  header.writeUInt32LE(size, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
}

/** A zip of these parts, deflated; a part with `claimed` says that size in its local and central headers. */
function zipOf(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const size = part.claimed ?? part.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    sharedFields(local, 4, part, size, name.length);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    sharedFields(central, 6, part, size, name.length);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.data);
    centrals.push(central, name);
    offset += 30 + name.length + part.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The parts of a real workbook, deflated again. */
async function partsOf(file: Buffer): Promise<Part[]> {
  const zip = await JSZip.loadAsync(file);
  const parts: Part[] = [];
  for (const name of Object.keys(zip.files)) {
    const entry = zip.files[name];
    if (!entry || entry.dir) continue;
    const data = await entry.async('nodebuffer');
    parts.push({ name, data: deflateRawSync(data), crc: crc32(data), size: data.length });
  }
  return parts;
}

/** `megabytes` MB of zeros, deflated a megabyte at a time (never whole in memory). */
async function deflatedZeros(megabytes: number): Promise<Part> {
  const chunk = Buffer.alloc(1024 * 1024);
  const out: Buffer[] = [];
  const deflate = createDeflateRaw({ level: 9 });
  deflate.on('data', (piece: Buffer) => out.push(piece));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  let crc = 0;
  for (let i = 0; i < megabytes; i++) {
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { name: 'xl/media/filler.bin', data: Buffer.concat(out), crc, size: megabytes * 1024 * 1024 };
}

describe.each(engines)('Excel import and export hardening on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Caller;

  suiteApp(engine, async (built) => {
    ctx = built;
    admin = await signIn(ctx, 'admin', 'Admin@123456');
  });

  const upload = (file: Buffer, lang = 'en-US') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/import',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': XLSX, 'accept-language': lang },
      payload: file,
    });
  const users = async () => (await admin.get('/api/system/user/user?pageSize=1')).body.data.total as number;

  it('refuses a workbook whose parts declare a huge inflated size, before inflating anything', async () => {
    const before = await users();
    const answer = await upload(
      declaring(
        await sheet([
          ['User number', 'Name'],
          ['bomb.one', 'Bomb'],
        ]),
        300 * 1024 * 1024,
      ),
    );
    expect([answer.statusCode, answer.json().data.fields[0]]).toEqual([400, expect.objectContaining({ field: 'file', rule: 'size' })]);
    expect(await users()).toBe(before);
  });

  it('limits the bytes a part really inflates to, whatever its local and central headers declare', async () => {
    const before = await users();
    const real = await partsOf(
      await sheet([
        ['User number', 'Name'],
        ['bomb.two', 'Bomb'],
      ]),
    );
    // 400 MB of zeros in about 400 KB, declared as 1 KB in both headers
    const filler = { ...(await deflatedZeros(400)), claimed: 1024 };
    const bomb = zipOf([...real, filler]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const answer = await upload(bomb);
    expect([answer.statusCode, answer.json().data.fields[0]]).toEqual([400, expect.objectContaining({ field: 'file', rule: 'size' })]);
    expect(await users()).toBe(before);
    // a part that says more than it holds is malformed; an honest workbook of the same parts imports
    const short = await upload(zipOf([...real, { ...real[0]!, name: 'xl/media/short.bin', claimed: real[0]!.size + 10 }]));
    expect([short.statusCode, short.json().data.fields[0]]).toEqual([400, expect.objectContaining({ field: 'file', rule: 'format' })]);
    const honest = await upload(zipOf(real));
    expect([honest.statusCode, honest.json().data]).toEqual([200, expect.objectContaining({ created: 1, failed: 0 })]);
    expect(await users()).toBe(before + 1);
  });

  it('stops at the row limit and keeps nothing of the sheet', async () => {
    const before = await users();
    const rows = Array.from({ length: MAX_ROWS + 1 }, (_, i) => [`limit.${i}`, i === 0 ? 'Kept?' : 'n'.repeat(30)]);
    const answer = await upload(await sheet([['User number', 'Name'], ...rows]));
    expect([answer.statusCode, answer.json().data.fields[0].rule]).toEqual([400, 'max']);
    expect(await users()).toBe(before);
  });

  it('reports every problem of a row by its header in the caller’s language, and reads headers and words of both languages', async () => {
    const bad = await upload(
      await sheet([
        ['用户编号', '姓名', '邮箱', '状态'],
        ['bad.row', 'n'.repeat(30), 'not-an-email', '停用'],
      ]),
      'zh-CN',
    );
    const errors = bad.json().data.errors as { row: number; field: string; rule: string }[];
    expect(errors.map((e) => [e.row, e.field])).toEqual([
      [2, '姓名'],
      [2, '邮箱'],
    ]);
    expect(errors.every((e) => typeof e.rule === 'string')).toBe(true);
    const good = await upload(
      await sheet([
        ['用户编号', '姓名', '状态', 'Sex'],
        ['zh.row', '中文', '停用', 'Female'],
      ]),
    );
    expect(good.json().data).toMatchObject({ created: 1, failed: 0 });
    const created = (await admin.get('/api/system/user/user?accountId=zh.row')).body.data.list[0];
    expect([created.status, created.sex]).toEqual(['1', '1']);
  });

  it('exports headers, words and times in the requester’s language and time zone, formula-looking text quote-prefixed', async () => {
    const made = await admin.post('/api/system/user/info', { accountId: 'formula.one', name: '=1+2', remark: '@SUM(A1)' });
    expect(made.status).toBe(200);
    const exported = await ctx.app.inject({
      method: 'GET',
      url: '/api/system/user/export?accountId=formula.one&tz=Asia/Shanghai',
      headers: { authorization: `Bearer ${admin.token}`, 'accept-language': 'zh-CN' },
    });
    const file = exported.rawPayload;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const ws = workbook.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    const row = Object.fromEntries(header.map((h, i) => [h, ws.getRow(2).getCell(i + 1).value]));
    expect(header.slice(0, 2)).toEqual(['用户编号', '姓名']);
    expect(row).toMatchObject({ 姓名: '=1+2', 备注: '@SUM(A1)', 状态: '正常', 用户类型: '普通用户' });
    expect(row.创建时间).toBe(formatTime(made.body.data.createTime, 'Asia/Shanghai'));
    const styles = await (await JSZip.loadAsync(file)).file('xl/styles.xml')!.async('string');
    expect(styles).toContain('quotePrefix="1"');
    // English and UTC by default
    const english = await ctx.app.inject({
      method: 'GET',
      url: '/api/system/user/export?accountId=formula.one',
      headers: { authorization: `Bearer ${admin.token}`, 'accept-language': 'en-US' },
    });
    const en = new ExcelJS.Workbook();
    await en.xlsx.load(english.rawPayload as unknown as ArrayBuffer);
    expect(en.worksheets[0]!.getRow(1).getCell(1).value).toBe('User number');
    expect(en.worksheets[0]!.getRow(2).getCell(13).value).toBe(formatTime(made.body.data.createTime, 'UTC'));
  });
});
