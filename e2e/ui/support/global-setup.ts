import { startMailCapture } from '../../api/support/mail-capture';

// An SMTP capture for the browser tests (hosted-*.spec.ts read mail with support/mail.ts). Its port
// is fixed in playwright.config.ts (GATEHOUSE_E2E_SMTP_PORT) because Playwright starts the webServer
// BEFORE globalSetup, so the server's SMTP_URL must be known before the capture exists.
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = process.env.GATEHOUSE_E2E_MAIL_DIR;
  const port = Number(process.env.GATEHOUSE_E2E_SMTP_PORT);
  if (!dir || !port) throw new Error('GATEHOUSE_E2E_MAIL_DIR / GATEHOUSE_E2E_SMTP_PORT are not set: run through playwright.config.ts');
  const capture = await startMailCapture(dir, port);
  return capture.stop;
}
