import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

// An SMTP capture for the browser tests (hosted-*.spec.ts read mail with support/mail.ts). The
// address is fixed in playwright.config.ts (GATEHOUSE_E2E_SMTP_PORT) because Playwright starts the
// webServer BEFORE globalSetup, so the server's SMTP_URL must be known before a capture exists.
// Same file format as e2e/api/support/mail-capture.ts (whose startMailCapture picks a free port at
// start, too late for the server's environment): raw messages as <time>-<n>.eml, with the envelope
// recipients in an X-Envelope-To first line.
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = process.env.GATEHOUSE_E2E_MAIL_DIR;
  const port = Number(process.env.GATEHOUSE_E2E_SMTP_PORT);
  if (!dir || !port) throw new Error('GATEHOUSE_E2E_MAIL_DIR / GATEHOUSE_E2E_SMTP_PORT are not set: run through playwright.config.ts');
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
