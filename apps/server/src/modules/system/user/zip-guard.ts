import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import JSZip from 'jszip';
import { AppError } from '../../../errors';

/** Largest inflated size of one workbook part, and of the whole workbook (a 5,000-row sheet is a few MB). */
export const MAX_ENTRY_BYTES = 32 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 1000;

const inflate = promisify(inflateRaw) as (data: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>;

const refuse = (rule: string, message: string) => new AppError('validation', { fields: [{ field: 'file', rule, message }] });

export type ZipLimits = { entryBytes: number; totalBytes: number };

/**
 * The workbook's parts, inflated with the limits enforced on the bytes actually produced, whatever
 * the zip's headers say, and written again as a plain (stored) zip holding exactly those parts.
 *
 * - The central directory names the parts (at most 1000, no ZIP64, no encryption, stored or deflated);
 *   each part's local header must agree with it on the name. A declared size over the limits is
 *   refused before anything is inflated.
 * - Each part is inflated by zlib on the thread pool with `maxOutputLength` set to its declared size
 *   (and never more than what is left of the total): a part that inflates to more than it declared
 *   stops there and the workbook is refused ('size'), so a 400 KB upload claiming 1 KB parts costs
 *   1 KB of inflating, not 400 MB. One that inflates to less is malformed ('format').
 * - The reader only ever sees the rewritten zip, so a part hidden between the local entries (not in
 *   the central directory) or headers that disagree with the data never reach it.
 */
export async function honestWorkbook(file: Buffer, limits: ZipLimits = { entryBytes: MAX_ENTRY_BYTES, totalBytes: MAX_TOTAL_BYTES }) {
  const parts = await readParts(file, limits);
  const zip = new JSZip();
  // worksheets last: the streaming reader then knows the workbook and its strings when a sheet comes
  // (met before them, a sheet is parked in a temporary file, and a stored one was sometimes lost there)
  const sheetsLast = [...parts].sort(([a], [b]) => Number(a.startsWith('xl/worksheets/')) - Number(b.startsWith('xl/worksheets/')));
  for (const [name, data] of sheetsLast) zip.file(name, data, { binary: true, createFolders: false });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE', streamFiles: false });
}

type Entry = { name: string; method: number; flags: number; compressed: number; size: number; offset: number };

function centralDirectory(file: Buffer, limits: ZipLimits): Entry[] {
  if (file.length < 22) throw refuse('format', 'import.notXlsx');
  // the end-of-central-directory record sits in the last 22 + 65535 bytes
  const from = Math.max(0, file.length - 22 - 0xffff);
  let end = -1;
  for (let i = file.length - 22; i >= from; i--) {
    if (file.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw refuse('format', 'import.notXlsx');
  const count = file.readUInt16LE(end + 10);
  let offset = file.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff || count > MAX_ENTRIES) throw refuse('format', 'import.layout');
  const entries: Entry[] = [];
  const names = new Set<string>();
  let declared = 0;
  for (let n = 0; n < count; n++) {
    if (offset + 46 > file.length || file.readUInt32LE(offset) !== 0x02014b50) throw refuse('format', 'import.notXlsx');
    const nameLength = file.readUInt16LE(offset + 28);
    const entry: Entry = {
      flags: file.readUInt16LE(offset + 8),
      method: file.readUInt16LE(offset + 10),
      compressed: file.readUInt32LE(offset + 20),
      size: file.readUInt32LE(offset + 24),
      offset: file.readUInt32LE(offset + 42),
      name: file.toString('utf8', offset + 46, Math.min(file.length, offset + 46 + nameLength)),
    };
    if (entry.size === 0xffffffff || entry.compressed === 0xffffffff || entry.offset === 0xffffffff)
      throw refuse('format', 'import.layout');
    if (entry.flags & 0x1 || (entry.method !== 0 && entry.method !== 8)) throw refuse('format', 'import.layout');
    if (names.has(entry.name)) throw refuse('format', 'import.layout');
    names.add(entry.name);
    if (entry.size > limits.entryBytes) throw refuse('size', 'import.tooLarge');
    declared += entry.size;
    if (declared > limits.totalBytes) throw refuse('size', 'import.tooLarge');
    entries.push(entry);
    offset += 46 + nameLength + file.readUInt16LE(offset + 30) + file.readUInt16LE(offset + 32);
  }
  return entries;
}

async function readParts(file: Buffer, limits: ZipLimits): Promise<Map<string, Buffer>> {
  const parts = new Map<string, Buffer>();
  let total = 0;
  for (const entry of centralDirectory(file, limits)) {
    const local = entry.offset;
    if (local + 30 > file.length || file.readUInt32LE(local) !== 0x04034b50) throw refuse('format', 'import.notXlsx');
    const nameLength = file.readUInt16LE(local + 26);
    const start = local + 30 + nameLength + file.readUInt16LE(local + 28);
    if (file.toString('utf8', local + 30, local + 30 + nameLength) !== entry.name) throw refuse('format', 'import.layout');
    if (start + entry.compressed > file.length) throw refuse('format', 'import.notXlsx');
    const raw = file.subarray(start, start + entry.compressed);
    // never more than it declared, nor than what is left of the whole
    const room = Math.min(entry.size, limits.totalBytes - total);
    let data: Buffer;
    if (entry.method === 0) data = raw;
    else if (entry.compressed === 0) data = Buffer.alloc(0);
    else
      data = await inflate(raw, { maxOutputLength: Math.max(1, room) }).catch((error: { code?: string }) => {
        if (error.code === 'ERR_BUFFER_TOO_LARGE') throw refuse('size', 'import.tooLarge');
        throw refuse('format', 'import.notXlsx');
      });
    if (data.length > room) throw refuse('size', 'import.tooLarge');
    if (data.length !== entry.size) throw refuse('format', 'import.notXlsx');
    total += data.length;
    parts.set(entry.name, data);
  }
  return parts;
}
