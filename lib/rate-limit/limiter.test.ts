import { describe, expect, it } from 'vitest';
import { consumeRateLimit, resetRateLimit } from './limiter';

describe('consumeRateLimit', () => {
  it('allows the ceiling, then answers 429 with the policy and dimension', async () => {
    const realm = `r-${Math.random()}`;
    for (let i = 0; i < 10; i++) await consumeRateLimit('bootstrap', 'source', realm, '10.0.0.1');
    await expect(consumeRateLimit('bootstrap', 'source', realm, '10.0.0.1')).rejects.toMatchObject({
      status: 429,
      extensions: { error: 'rate_limited', policy: 'bootstrap', dimension: 'source' },
    });
    // Another address and another realm have their own counters.
    await expect(consumeRateLimit('bootstrap', 'source', realm, '10.0.0.2')).resolves.toBeUndefined();
    await expect(consumeRateLimit('bootstrap', 'source', `${realm}x`, '10.0.0.1')).resolves.toBeUndefined();
  });

  it('ignores dimensions a policy does not limit, and can reset a key', async () => {
    const realm = `r-${Math.random()}`;
    for (let i = 0; i < 20; i++) await consumeRateLimit('bootstrap', 'target', realm, 'x');
    for (let i = 0; i < 10; i++) await consumeRateLimit('login', 'target', realm, 'Alice');
    await resetRateLimit('login', 'target', realm, 'alice');
    await expect(consumeRateLimit('login', 'target', realm, 'ALICE')).resolves.toBeUndefined();
  });
});
