import type { PrinterVendor } from '@atrium/contracts';
import type { Block } from '../receipt';

/** What a driver is told about the printer a job goes to. */
export type DriverPrinter = { id: number; tenantId: number; vendor: PrinterVendor; sn: string; paperWidth: number; state: string };
/** A job as drivers see it: the receipt as blocks (each driver renders its own markup) and as plain text. */
export type DriverJob = { id: number; blocks: Block[]; text: string; copies: number };

/** `sent`: the device or cloud took it and will acknowledge; `printed`: the vendor says it printed. */
export type PrintOutcome = { result: 'sent' | 'printed'; vendorJobId?: string };

/** The printer cannot take jobs now (offline): the job waits, no attempt is counted. */
export class PrinterUnavailable extends Error {}
/** The transport failed (timeout, connection, 5xx): the job is tried again later, then fails. */
export class TransportError extends Error {}
/** The vendor refused the job (bad credentials, unknown printer): trying again would not help. */
export class VendorRefused extends Error {}

/**
 * One driver per vendor. `print` is the one every driver has; the cloud vendors add device
 * registration, job and status queries and callback verification.
 */
export interface PrintDriver {
  print(printer: DriverPrinter, job: DriverJob): Promise<PrintOutcome>;
  addDevice?(sn: string, key: string, name: string): Promise<void>;
  removeDevice?(sn: string): Promise<void>;
  queryJob?(vendorJobId: string): Promise<'printed' | 'waiting' | 'failed'>;
  queryStatus?(sn: string): Promise<'online' | 'offline' | 'paper-out'>;
  verifyCallback?(body: Record<string, string>, headers: Record<string, string | undefined>): boolean;
}
