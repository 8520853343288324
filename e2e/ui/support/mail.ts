import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

// Reading the mail the server sent during a browser test run, from the SMTP capture the global
// setup started (global-setup.ts); the same shape as e2e/api/support/mailbox.ts.
export type ReceivedMail = { file: string; to: string[]; subject: string; text: string; links: string[]; code?: string };

function mailDir(): string {
  const dir = process.env.GATEHOUSE_E2E_MAIL_DIR;
  if (!dir) throw new Error('GATEHOUSE_E2E_MAIL_DIR is not set: run through playwright.config.ts');
  return dir;
}

async function parse(file: string): Promise<ReceivedMail> {
  const raw = readFileSync(file);
  const envelope = /^X-Envelope-To: (.*)$/m.exec(raw.toString('utf8', 0, 2000))?.[1]?.trim() ?? '';
  const mail = await simpleParser(raw);
  const text = mail.text ?? '';
  return {
    file,
    to: envelope.split(',').filter(Boolean),
    subject: mail.subject ?? '',
    text,
    links: [...new Set(text.match(/https?:\/\/[^\s"'<>]+/g) ?? [])],
    code: /(?:^|\s)(\d{6})(?:\s|$)/m.exec(text)?.[1],
  };
}

/** Every mail received so far for `to` (oldest first). */
export async function mailsTo(to: string): Promise<ReceivedMail[]> {
  const dir = mailDir();
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  const all = await Promise.all(files.map((f) => parse(join(dir, f))));
  return all.filter((m) => m.to.includes(to.toLowerCase()));
}

/** How many mails `to` has received so far (take it before an action, pass it as `after`). */
export async function mailCount(to: string): Promise<number> {
  return (await mailsTo(to)).length;
}

/** Waits for a new mail to `to` (after the first `after` ones) whose subject matches. */
export async function waitForMail(to: string, options: { after?: number; subject?: RegExp; timeoutMs?: number } = {}): Promise<ReceivedMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const mails = (await mailsTo(to)).slice(options.after ?? 0);
    const hit = mails.find((m) => !options.subject || options.subject.test(m.subject));
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no mail to ${to}${options.subject ? ` matching ${options.subject}` : ''} within the timeout`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The first link in the mail whose path starts with `path`. */
export function linkTo(mail: ReceivedMail, path: string): string {
  const link = mail.links.find((l) => new URL(l).pathname.startsWith(path));
  if (!link) throw new Error(`no ${path} link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}
