import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLdapFilterValue, userSearchFilter } from './ldap-filter';

describe('escapeLdapFilterValue (RFC 4515)', () => {
  it('writes the five metacharacters as hex escapes and leaves the rest alone', () => {
    expect(escapeLdapFilterValue('a*b(c)d\\e\0f')).toBe('a\\2ab\\28c\\29d\\5ce\\00f');
    expect(escapeLdapFilterValue('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a');
    expect(escapeLdapFilterValue('Zoë.Ünal-42@example.org')).toBe('Zoë.Ünal-42@example.org');
    expect(escapeLdapFilterValue('')).toBe('');
  });

  it('never leaves a metacharacter unescaped, and the escapes decode back to the input', () => {
    fc.assert(
      // Names dense in metacharacters and escape look-alikes, and arbitrary code points.
      fc.property(
        fc.oneof(fc.string({ unit: fc.constantFrom('*', '(', ')', '\\', '\0', '2', '5', 'a', 'c', 'é', '=') }), fc.string({ unit: 'binary' })),
        (value) => {
          const escaped = escapeLdapFilterValue(value);
          // With every escape removed, no metacharacter may remain: a backslash only ever starts one of ours.
          const unescaped = !/[\\*()\0]/.test(escaped.replace(/\\(2a|28|29|5c|00)/g, ''));
          const decoded = escaped.replace(/\\([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
          return unescaped && decoded === value;
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('userSearchFilter', () => {
  it('defaults to (uid={username}) and replaces every placeholder with the escaped name', () => {
    expect(userSearchFilter(undefined, 'o*brien')).toBe('(uid=o\\2abrien)');
    expect(userSearchFilter(null, 'alice')).toBe('(uid=alice)');
    expect(userSearchFilter('(|(uid={username})(mail={username}))', 'a(b')).toBe('(|(uid=a\\28b)(mail=a\\28b))');
  });

  it('gives $ sequences in a name no meaning', () => {
    expect(userSearchFilter('(uid={username})', "$&$'$`")).toBe("(uid=$&$'$`)");
  });
});
