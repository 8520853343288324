import { rmSync } from 'node:fs';

// The run's data directory is a fresh temp directory (playwright.config.ts): remove it.
export default function globalTeardown(): void {
  const dir = process.env.GATEHOUSE_E2E_DATA_DIR;
  if (dir && dir.includes('gatehouse-ui-e2e-')) rmSync(dir, { recursive: true, force: true });
  // ... and the SMTP capture's mail directory (global-setup.ts).
  const mail = process.env.GATEHOUSE_E2E_MAIL_DIR;
  if (mail && mail.includes('gatehouse-ui-e2e-mail-')) rmSync(mail, { recursive: true, force: true });
}
