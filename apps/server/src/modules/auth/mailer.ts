import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import nodemailer from 'nodemailer';

export type Mail = { to: string; subject: string; text: string };
export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

const FROM = 'Atrium <no-reply@atrium.local>';

/**
 * Mail through nodemailer: to SMTP_URL when set, otherwise each message is written as an .eml file
 * under DATA_DIR/outbox/ (so a fresh install can still complete a password reset by reading the file).
 */
export function createMailer(options: { smtpUrl?: string; dataDir: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: FROM, ...mail });
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: FROM, ...mail });
      await mkdir(outbox, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(path.join(outbox, name), info.message as Buffer, { mode: 0o600 });
    },
    close: () => transport.close(),
  };
}

/** Sends a notice after the answer (the app waits for it when closing); a failure is only logged. */
export function sendNotice(app: FastifyInstance, request: FastifyRequest, mail: Mail, what: string) {
  const sending = app.mailer.send(mail).catch((error: unknown) => request.log.error({ err: error }, `${what} mail not sent`));
  app.pendingMail.add(sending);
  void sending.finally(() => app.pendingMail.delete(sending));
}
