import { AppError } from '../../../errors';

/** Largest inflated size of one workbook part, and of the whole workbook. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 128 * 1024 * 1024;
const MAX_ENTRIES = 1000;

const refuse = (rule: string, message: string) => new AppError('validation', { fields: [{ field: 'file', rule, message }] });

/**
 * Reads the zip's central directory (no inflating) and refuses a workbook whose parts declare more
 * than MAX_ENTRY_BYTES each or MAX_TOTAL_BYTES together, or whose directory is missing or ZIP64:
 * a 1 MB upload must not become gigabytes in memory. The streaming reader then stops at the row limit.
 */
export function checkZipSizes(file: Buffer): void {
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
  const entries = file.readUInt16LE(end + 10);
  let offset = file.readUInt32LE(end + 16);
  if (entries === 0xffff || offset === 0xffffffff || entries > MAX_ENTRIES) throw refuse('format', 'import.layout');
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > file.length || file.readUInt32LE(offset) !== 0x02014b50) throw refuse('format', 'import.notXlsx');
    const size = file.readUInt32LE(offset + 24);
    if (size === 0xffffffff || size > MAX_ENTRY_BYTES) throw refuse('size', 'import.tooLarge');
    total += size;
    if (total > MAX_TOTAL_BYTES) throw refuse('size', 'import.tooLarge');
    offset += 46 + file.readUInt16LE(offset + 28) + file.readUInt16LE(offset + 30) + file.readUInt16LE(offset + 32);
  }
}
