/**
 * The built-in MQTT printer protocol (no zod: the device simulator and the broker rules load it).
 *
 * A device connects to the same broker as browsers with username `printer:{sn}`, its device key as
 * the password and client id `printer-{sn}` (no other), and uses only the topics under `atrium-printer/{sn}/`:
 * - `job`    server → device, QoS 1: {@link PrinterJobMessage}
 * - `ack`    device → server, QoS 1: {@link PrinterAckMessage}
 * - `status` device → server, retained, QoS 1: {@link PrinterStatusMessage}; the device's last will is
 *   `{ "state": "offline" }` on the same topic.
 */
export const PRINTER_TOPIC_ROOT = 'atrium-printer';
export const PRINTER_USERNAME_PREFIX = 'printer:';
export const PRINTER_QOS = 1 as const;

/** A serial number: letters, digits, `-` and `_` (no MQTT wildcards or separators), 4 to 40 characters. */
export const PRINTER_SN_PATTERN = /^[A-Za-z0-9_-]{4,40}$/;

export const printerStates = ['online', 'offline', 'paper-out'] as const;
export type PrinterState = (typeof printerStates)[number];

export type PrinterTopicKind = 'job' | 'ack' | 'status';

export function printerTopic(sn: string, kind: PrinterTopicKind): string {
  return `${PRINTER_TOPIC_ROOT}/${sn}/${kind}`;
}

export function printerUsername(sn: string): string {
  return `${PRINTER_USERNAME_PREFIX}${sn}`;
}

/** The MQTT client id a device connects with: `printer-{sn}`, and no other (one connection per device). */
export function printerClientId(sn: string): string {
  return `printer-${sn}`;
}

/** The serial number of a `printer:{sn}` username, or null when the username is not a printer's. */
export function snOfUsername(username: string | undefined): string | null {
  if (!username?.startsWith(PRINTER_USERNAME_PREFIX)) return null;
  const sn = username.slice(PRINTER_USERNAME_PREFIX.length);
  return PRINTER_SN_PATTERN.test(sn) ? sn : null;
}

/** The serial number and kind of a printer topic, or null for any other topic. */
export function parsePrinterTopic(topic: string): { sn: string; kind: PrinterTopicKind } | null {
  const parts = topic.split('/');
  if (parts.length !== 3 || parts[0] !== PRINTER_TOPIC_ROOT) return null;
  const [, sn, kind] = parts as [string, string, string];
  if (!PRINTER_SN_PATTERN.test(sn) || (kind !== 'job' && kind !== 'ack' && kind !== 'status')) return null;
  return { sn, kind };
}

export type PrinterJobMessage = { jobId: number; copies: number; paperWidth: 58 | 80; text: string; escpos: string };
export type PrinterAckMessage = { jobId: number; status: 'printed' | 'failed'; reason?: string };
export type PrinterStatusMessage = { state: PrinterState };
