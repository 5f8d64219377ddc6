import { type PrinterJobMessage, printerTopic } from '@atrium/contracts/printer-protocol';
import { renderEscPos } from '../receipt';
import { type DriverJob, type DriverPrinter, type PrintDriver, PrinterUnavailable, TransportError } from './driver';

export type DevicePublisher = {
  /** Whether the device can take a job now (connected here, or online as its status says). */
  online(printer: DriverPrinter): boolean;
  publish(topic: string, payload: string): Promise<boolean>;
};

/** The built-in protocol (and the simulator): the job goes to `atrium-printer/{sn}/job` at QoS 1; the device acks. */
export function mqttDriver(devices: DevicePublisher): PrintDriver {
  return {
    async print(printer: DriverPrinter, job: DriverJob) {
      if (!devices.online(printer)) throw new PrinterUnavailable('the printer is offline');
      const message: PrinterJobMessage = {
        jobId: job.id,
        copies: job.copies,
        paperWidth: printer.paperWidth === 80 ? 80 : 58,
        text: job.text,
        escpos: renderEscPos(job.blocks, printer.paperWidth, job.copies).toString('base64'),
      };
      if (!(await devices.publish(printerTopic(printer.sn, 'job'), JSON.stringify(message)))) {
        throw new TransportError('the broker did not take the job');
      }
      return { result: 'sent' };
    },
  };
}
