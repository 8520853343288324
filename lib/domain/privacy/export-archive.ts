import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { RealmDb } from '../../db/types';
import type { PersonalData } from './personal-data';
import { securityLogJson, sessionsJson } from './record-pages';

// The archive of a person's data (GDPR Article 20; spec 4.6): a ZIP with profile.json and one JSON
// file per kind of personal data, written as it is sent. yazl writes each entry after the previous
// one; the two unbounded entries (sessions, security log) open their page readers only when yazl
// reaches them, and the stream's back-pressure reaches those readers, so a slow download never
// makes the server buffer the archive. The web stream pulls one chunk at a time.
//
// `onSettled` runs once the archive has been written whole ('complete'), the download was abandoned
// ('aborted') or reading failed ('failed'); the stream ends only after it has finished, so a client
// whose download completed knows that work is done (a confirmed deletion finishes there).

export type ArchiveOutcome = 'complete' | 'aborted' | 'failed';

export type ArchiveInput = {
  db: RealmDb;
  userId: string;
  data: PersonalData;
  onSettled?: (outcome: ArchiveOutcome) => Promise<void>;
};

/** The entries every archive has, in this order (docs/privacy.md). */
export const ARCHIVE_ENTRIES = [
  'profile.json',
  'sessions.json',
  'passkeys.json',
  'external-links.json',
  'change-requests.json',
  'consents.json',
  'groups.json',
  'invite-codes.json',
  'security-log.json',
] as const;

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

export function exportArchive(input: ArchiveInput): ReadableStream<Uint8Array> {
  const { db, userId, data } = input;
  const zip = new ZipFile();
  const options = { mtime: data.exportedAt };
  let failure: unknown;
  zip.on('error', (e: unknown) => {
    failure ??= e;
    (zip.outputStream as Readable).destroy(e instanceof Error ? e : new Error(String(e)));
  });
  // A page reader's error would otherwise stop the entry silently (yazl does not watch lazy streams);
  // an abandoned download closes the readers, which ends their generators between two pages.
  const readers: Readable[] = [];
  const lazy = (make: () => AsyncIterable<string>) => (cb: (err: unknown, stream: NodeJS.ReadableStream) => void) => {
    const stream = Readable.from(make(), { objectMode: false });
    stream.on('error', (e) => zip.emit('error', e));
    readers.push(stream);
    cb(null, stream);
  };
  const stop = () => {
    for (const r of readers) r.destroy();
    (zip.outputStream as Readable).destroy();
  };

  zip.addBuffer(json({ ExportedAt: data.exportedAt, ...data.profile }), 'profile.json', options);
  zip.addReadStreamLazy(
    'sessions.json',
    options,
    lazy(() => sessionsJson(db, userId, data.clientSessions)),
  );
  zip.addBuffer(json({ Passkeys: data.passkeys }), 'passkeys.json', options);
  zip.addBuffer(json({ ExternalLinks: data.externalLinks }), 'external-links.json', options);
  zip.addBuffer(json({ ChangeRequests: data.changeRequests }), 'change-requests.json', options);
  zip.addBuffer(json({ Consents: data.consents }), 'consents.json', options);
  zip.addBuffer(json({ Groups: data.groups }), 'groups.json', options);
  zip.addBuffer(json({ InviteCodes: data.inviteCodes }), 'invite-codes.json', options);
  zip.addReadStreamLazy(
    'security-log.json',
    options,
    lazy(() => securityLogJson(db, userId)),
  );
  zip.end();

  const chunks = (zip.outputStream as Readable)[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let settled = false;
  const settle = async (outcome: ArchiveOutcome) => {
    if (settled) return;
    settled = true;
    await input.onSettled?.(outcome);
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: IteratorResult<Buffer>;
        try {
          next = await chunks.next();
        } catch (e) {
          stop();
          await settle('failed');
          controller.error(failure ?? e);
          return;
        }
        if (next.done) {
          await settle(failure ? 'failed' : 'complete');
          if (failure) controller.error(failure);
          else controller.close();
          return;
        }
        controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
      async cancel() {
        stop();
        await settle('aborted');
      },
    },
    // Pull only when the consumer asks: nothing is read ahead of the download.
    { highWaterMark: 0 },
  );
}
