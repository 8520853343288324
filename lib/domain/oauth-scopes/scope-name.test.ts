import { describe, expect, it } from 'vitest';
import { scopeNameSchema } from './scope-name';

describe('scopeNameSchema', () => {
  it('takes RFC 6749 scope tokens', () => {
    expect(scopeNameSchema.parse(' orders.read ')).toBe('orders.read');
    expect(scopeNameSchema.safeParse('two words').success).toBe(false);
  });

  it("refuses Gatehouse's reserved urn:gatehouse: prefix (the engine's empty-scope marker lives there)", () => {
    expect(scopeNameSchema.safeParse('urn:gatehouse:no-scope').success).toBe(false);
    expect(scopeNameSchema.safeParse('URN:Gatehouse:x').success).toBe(false);
    expect(scopeNameSchema.safeParse('urn:example:orders').success).toBe(true);
  });
});
