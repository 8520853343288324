import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { freePort } from './server-process';

// A real SMTP server for the test run (issue 3: "mail read from a real SMTP server that the tests
// start"). It accepts every message on loopback and writes it, raw, into `dir` as <n>.eml, where
// test files (other processes) read it back with mailbox.ts.
export type MailCapture = { url: string; dir: string; stop: () => Promise<void> };

/** Starts the capture on `port`, or on a free port when none is given. */
export async function startMailCapture(dir: string, port?: number): Promise<MailCapture> {
  mkdirSync(dir, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(',');
        const name = `${Date.now()}-${String(++n).padStart(5, '0')}.eml`;
        writeFileSync(join(dir, name), `X-Envelope-To: ${to}\r\n${Buffer.concat(chunks).toString('utf8')}`);
        callback();
      });
    },
  });
  const listenPort = port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => resolve());
  });
  return { url: `smtp://127.0.0.1:${listenPort}`, dir, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
