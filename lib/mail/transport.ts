import { writeFileSync } from 'node:fs';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../runtime/private-files';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { settings } from '../config/env';
import { newId } from '../crypto/tokens';
import { logError, logInfo } from '../log/logger';
import { shared } from '../runtime/shared';

// Outgoing mail (CONTRACT.md): SMTP over SMTP_URL, or, when it is unset, a development outbox where
// each message is written as an .eml file under <data dir>/outbox/ and its subject and links are
// logged so a developer can follow them. A failed send is logged and thrown, never dropped.

export type MailMessage = { from: string; to: string; subject: string; text: string; html: string };

function smtpTransport(url: string): Transporter {
  return shared('mail.smtp', () => nodemailer.createTransport(url));
}

function rfc822Transport(): Transporter {
  return shared('mail.outbox', () => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
}

const LINK = /https?:\/\/[^\s"'<>]+/g;

export async function deliver(message: MailMessage): Promise<void> {
  const url = settings().smtpUrl;
  try {
    if (url) {
      await smtpTransport(url).sendMail(message);
      return;
    }
    const info = (await rfc822Transport().sendMail(message)) as { message: Buffer };
    const dir = join(settings().dataDir, 'outbox');
    mkdirPrivate(dir);
    const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId().slice(0, 8)}.eml`);
    // The outbox holds sign-in and reset links: readable by Gatehouse's user only.
    writeFileSync(file, info.message, { mode: PRIVATE_FILE_MODE });
    logInfo('mail written to the development outbox', { file, to: message.to, subject: message.subject, links: [...new Set(message.text.match(LINK) ?? [])] });
  } catch (e) {
    logError('mail delivery failed', e, { subject: message.subject });
    throw e;
  }
}
