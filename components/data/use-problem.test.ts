import { describe, expect, it } from 'vitest';
import { fieldWords } from './use-problem';

// A refusal the form cannot place at a field is listed in its summary under the field's name in words.
describe('fieldWords', () => {
  it('spells API field paths as words', () => {
    expect(fieldWords('Jit.DefaultGroupIds')).toBe('Jit, default group ids');
    expect(fieldWords('Domains.1')).toBe('Domains, item 2');
    expect(fieldWords('RedirectUris')).toBe('Redirect uris');
    expect(fieldWords('body')).toBe('Body');
    expect(fieldWords('/Manifest/Groups/3/Roles/0')).toBe('/Manifest/Groups/3/Roles/0');
  });
});
