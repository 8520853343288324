import { describe, expect, it } from 'vitest';
import { loadBinding } from './binding';

describe('loadBinding', () => {
  it('loads the installed package', async () => {
    const loaded = await loadBinding();
    expect('binding' in loaded && typeof loaded.binding.initializeServer).toBe('function');
  });

  it('says why when the package is not installed, instead of throwing', async () => {
    expect(await loadBinding('kerberos-that-npm-left-out')).toEqual({
      reason: 'the optional kerberos package is not installed (it needs libkrb5-dev when npm ci runs)',
    });
  });
});
