import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server in this process: every message it receives, raw. */
export async function startMailbox() {
  const messages: string[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        messages.push(raw);
        for (const wake of waiters.splice(0)) wake();
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async next(count: number, timeoutMs = 10_000): Promise<string> {
      const started = Date.now();
      while (messages.length < count) {
        if (Date.now() - started > timeoutMs) throw new Error('no mail arrived');
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return messages[count - 1] as string;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
