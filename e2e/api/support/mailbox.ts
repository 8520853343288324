import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { suite } from './harness';

// Reading the mail the server sent, from the run's SMTP capture (mail-capture.ts).
export type ReceivedMail = { file: string; to: string[]; from: string; subject: string; text: string; html: string; links: string[]; code?: string };

async function parse(file: string): Promise<ReceivedMail> {
  const raw = readFileSync(file);
  const envelope = /^X-Envelope-To: (.*)$/m.exec(raw.toString('utf8', 0, 2000))?.[1] ?? '';
  const mail = await simpleParser(raw);
  const text = mail.text ?? '';
  return {
    file,
    to: envelope.split(',').filter(Boolean),
    from: mail.from?.text ?? '',
    subject: mail.subject ?? '',
    text,
    html: typeof mail.html === 'string' ? mail.html : '',
    links: [...new Set(text.match(/https?:\/\/[^\s"'<>]+/g) ?? [])],
    code: /(?:^|\s)(\d{6})(?:\s|$)/m.exec(text)?.[1],
  };
}

/** Every mail received so far for `to` (oldest first). */
export async function mailsTo(to: string): Promise<ReceivedMail[]> {
  const dir = suite().mailDir;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  const all = await Promise.all(files.map((f) => parse(join(dir, f))));
  return all.filter((m) => m.to.includes(to.toLowerCase()));
}

/**
 * Waits for a new mail to `to` (one that was not there when `after` was taken, see mailCount) whose
 * subject matches, and returns it.
 */
export async function waitForMail(to: string, options: { after?: number; subject?: RegExp; timeoutMs?: number } = {}): Promise<ReceivedMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const mails = (await mailsTo(to)).slice(options.after ?? 0);
    const hit = mails.find((m) => !options.subject || options.subject.test(m.subject));
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no mail to ${to}${options.subject ? ` matching ${options.subject}` : ''} within the timeout`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many mails `to` has received so far (take it before an action, pass it as `after`). */
export async function mailCount(to: string): Promise<number> {
  return (await mailsTo(to)).length;
}
