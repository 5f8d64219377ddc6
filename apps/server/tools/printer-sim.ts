/**
 * A receipt printer of the built-in MQTT protocol, for development and browser tests:
 *
 *   npm run printer:sim -- --sn SN --key KEY [--url ws://127.0.0.1:8083/mqtt] [--out DIR]
 *                          [--paper-out] [--drop-acks] [--delay ms]
 *
 * It connects as `printer:{sn}` with its device key, announces its state (retained) with a last will
 * of `offline`, and for every job writes `{jobId}.txt` and `{jobId}.png` (the receipt as printed) to
 * the output directory, then acks `printed` — or `failed` while out of paper; `--drop-acks` never
 * acks (the server's job stays SENT), `--delay` waits before printing.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { commandLine, usageError } from '@atrium/contracts/command-line';
import {
  type PrinterAckMessage,
  type PrinterJobMessage,
  type PrinterStatusMessage,
  printerClientId,
  printerTopic,
  printerUsername,
} from '@atrium/contracts/printer-protocol';
import mqtt from 'mqtt';
import { receiptPng } from './receipt-png';

const usage = `usage: npm run printer:sim -- --sn SN --key KEY [options]

  --sn SN         the printer's serial number (required)
  --key KEY       its device key (required)
  --url URL       the broker's WebSocket address (default ws://127.0.0.1:8083/mqtt)
  --out DIR       where receipts are written (default ./receipts)
  --paper-out     announce paper-out and acknowledge every job as failed
  --drop-acks     never acknowledge a job (the server's job stays sent until it times out)
  --delay MS      wait before printing each job
  --help          print this text
`;

const values = commandLine(
  {
    sn: { type: 'string' },
    key: { type: 'string' },
    url: { type: 'string', default: 'ws://127.0.0.1:8083/mqtt' },
    out: { type: 'string', default: './receipts' },
    'paper-out': { type: 'boolean', default: false },
    'drop-acks': { type: 'boolean', default: false },
    delay: { type: 'string', default: '0' },
  },
  usage,
);
const { sn, key } = values;
if (!sn || !key) usageError(usage);
const out = path.resolve(values.out);
const delay = Number(values.delay) || 0;
const status = (state: PrinterStatusMessage['state']) => JSON.stringify({ state } satisfies PrinterStatusMessage);

await mkdir(out, { recursive: true });
const client = mqtt.connect(values.url, {
  username: printerUsername(sn),
  password: key,
  clientId: printerClientId(sn),
  clean: true,
  reconnectPeriod: 2000,
  will: { topic: printerTopic(sn, 'status'), payload: Buffer.from(status('offline')), qos: 1, retain: true },
});
client.on('connect', async () => {
  await client.subscribeAsync(printerTopic(sn, 'job'), { qos: 1 });
  await client.publishAsync(printerTopic(sn, 'status'), status(values['paper-out'] ? 'paper-out' : 'online'), { qos: 1, retain: true });
  console.log(`printer ${sn} connected to ${values.url}; receipts go to ${out}`);
});
client.on('error', (error) => console.error(`printer ${sn}: ${error.message}`));
client.on('message', async (_topic, payload) => {
  let job: PrinterJobMessage;
  try {
    job = JSON.parse(payload.toString('utf8')) as PrinterJobMessage;
  } catch {
    return;
  }
  if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
  const ack: PrinterAckMessage = values['paper-out']
    ? { jobId: job.jobId, status: 'failed', reason: 'paper-out' }
    : { jobId: job.jobId, status: 'printed' };
  if (ack.status === 'printed') {
    await writeFile(path.join(out, `${job.jobId}.txt`), job.text);
    await writeFile(path.join(out, `${job.jobId}.bin`), Buffer.from(job.escpos, 'base64'));
    await writeFile(path.join(out, `${job.jobId}.png`), await receiptPng(job.text, job.paperWidth));
    console.log(`job ${job.jobId}: printed (${job.copies} cop${job.copies === 1 ? 'y' : 'ies'})`);
  } else console.log(`job ${job.jobId}: failed (paper out)`);
  if (!values['drop-acks']) await client.publishAsync(printerTopic(sn, 'ack'), JSON.stringify(ack), { qos: 1 });
});
const stop = async () => {
  await client.publishAsync(printerTopic(sn, 'status'), status('offline'), { qos: 1, retain: true }).catch(() => {});
  client.end(false, () => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
