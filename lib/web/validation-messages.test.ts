import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { friendlyIssueMessage, installFriendlyValidationMessages } from './validation-messages';

// zod's own English, which nobody using Gatehouse should read.
const RAW = /expected|received|Invalid input|Invalid option|Too big|Too small|Invalid string|Unrecognized key/i;

function messages(schema: z.ZodType, input: unknown): string[] {
  const r = schema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

beforeAll(() => installFriendlyValidationMessages());

describe('friendly validation messages', () => {
  it('says in words what each default rule wants', () => {
    expect(messages(z.object({ Name: z.string() }), {})).toEqual(['This field is required.']);
    expect(messages(z.string().max(100), 'x'.repeat(101))).toEqual(['Use at most 100 characters.']);
    expect(messages(z.string().min(1), '')).toEqual(['This field is required.']);
    expect(messages(z.string().min(8), 'short')).toEqual(['Use at least 8 characters.']);
    expect(messages(z.string().length(6), '123')).toEqual(['Use exactly 6 characters.']);
    expect(messages(z.email(), 'nope')).toEqual(['Enter a valid e-mail address.']);
    expect(messages(z.url(), 'nope')).toEqual(['Enter a valid web address (URL).']);
    expect(messages(z.string(), 5)).toEqual(['Enter text.']);
    expect(messages(z.number().int().min(1).max(10), 11)).toEqual(['Enter a number no greater than 10.']);
    expect(messages(z.number().int().min(1), 0)).toEqual(['Enter a number of at least 1.']);
    expect(messages(z.int(), 1.5)).toEqual(['Enter a whole number.']);
    expect(messages(z.boolean(), 'yes')).toEqual(['Use true or false.']);
    expect(messages(z.array(z.string()).min(1), [])).toEqual(['Add at least one.']);
    expect(messages(z.array(z.string()).max(2), ['a', 'b', 'c'])).toEqual(['Use at most 2 items.']);
    expect(messages(z.enum(['Public', 'Confidential']), 'Other')).toEqual(['Choose one of: Public, Confidential.']);
    expect(messages(z.literal(true), false)).toEqual(['This must be true.']);
    expect(messages(z.strictObject({ A: z.string() }), { A: 'a', B: 1 })).toEqual(['Remove the unknown field “B”.']);
    expect(messages(z.string().regex(/^[a-z]+$/), 'A')).toEqual(['This value is not in the right format.']);
    expect(messages(z.string().startsWith('https://'), 'http://x')).toEqual(['Start with “https://”.']);
    expect(messages(z.iso.datetime(), 'yesterday')).toEqual(['Enter a valid date and time.']);
    expect(
      messages(
        z.string().refine(() => false),
        'x',
      ),
    ).toEqual(['This value is not valid.']);
  });

  it('keeps the messages schemas write themselves', () => {
    expect(messages(z.string().min(1, 'Enter a user name.'), '')).toEqual(['Enter a user name.']);
    expect(messages(z.string({ error: 'Name it.' }), undefined)).toEqual(['Name it.']);
    expect(messages(z.email('Enter a valid e-mail address.').max(5), 'a@b.example')).toEqual(['Enter a valid e-mail address.']);
  });

  it('tells from a union what the branch of the right type needs', () => {
    const userNameOrBlank = z.union([z.string().regex(/^\S+$/, 'Use no spaces.'), z.literal('')]);
    expect(messages(userNameOrBlank, 'a b')).toEqual(['Use no spaces.']);
    expect(messages(userNameOrBlank, 5)).toEqual(['Enter text.']);
    const kind = z.discriminatedUnion('Kind', [z.object({ Kind: z.literal('A') }), z.object({ Kind: z.literal('B') })]);
    expect(messages(kind, { Kind: 'C' }).join(' ')).not.toMatch(RAW);
  });

  it('answers every issue code in words', () => {
    const codes = ['invalid_key', 'invalid_element', 'not_multiple_of', 'custom', 'something_new'];
    for (const code of codes) {
      const message = friendlyIssueMessage({ code, input: 1, path: [], divisor: 5, origin: 'map' } as unknown as z.core.$ZodRawIssue);
      expect(message, code).toMatch(/^[A-Z].*\.$/);
      expect(message, code).not.toMatch(RAW);
    }
  });

  // Every request schema the API and the forms use, fed the usual mistakes: nothing left out,
  // wrong types, far too long, empty lists. None of the answers may be zod's raw English.
  it('leaves no raw zod message in any schema of the domain', async () => {
    const domain = join(__dirname, '..', 'domain');
    const files = readdirSync(domain, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => ['schemas.ts', 'schema.ts', 'settings-schema.ts'].map((f) => join(domain, d.name, f)))
      .filter((f) => existsSync(f));
    expect(files.length).toBeGreaterThan(10);
    const long = 'x'.repeat(5000);
    const seen: string[] = [];
    let schemas = 0;
    for (const file of files) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        if (!(value instanceof z.ZodType)) continue;
        schemas++;
        const shape = value instanceof z.ZodObject ? Object.keys(value.shape) : [];
        const variants: unknown[] = [undefined, null, 42, 'text', [], {}];
        for (const bad of [long, 12345, true, [], {}, [long], '', 'not an e-mail', -1, 1e12]) {
          variants.push(Object.fromEntries(shape.map((k) => [k, bad])));
        }
        for (const input of variants) {
          for (const m of messages(value, input)) {
            if (RAW.test(m)) seen.push(`${file.slice(domain.length + 1)} ${name}: ${m}`);
          }
        }
      }
    }
    expect(schemas).toBeGreaterThan(50);
    expect(seen).toEqual([]);
  });
});
