import { describe, expect, it } from 'vitest';
import { renderMail } from '../layout';
import { securityNoticeMail } from './security-notice';

describe('security notices', () => {
  const branding = { productName: 'Acme ID', primaryColor: '#aa0000' };
  const accountUrl = 'http://acme.test/account';

  it('say what an administrator changed, point to the account page and ask to report what was not asked for', () => {
    const mail = renderMail(branding, securityNoticeMail(branding, { notice: { kind: 'two-factor-reset' }, accountUrl }));
    expect(mail.subject).toBe('Your Acme ID two-step sign-in was reset');
    expect(mail.text).toContain('removed your authenticator app');
    expect(mail.text).toContain(accountUrl);
    expect(mail.text).toContain('tell them at once');
    expect(mail.text).not.toContain('second factor:');
  });

  it('count the removed passkeys and name the grace period when one started', () => {
    const one = renderMail(branding, securityNoticeMail(branding, { notice: { kind: 'passkeys-removed', count: 1, graceDays: 1 }, accountUrl }));
    expect(one.subject).toBe('A passkey was removed from your Acme ID account');
    expect(one.text).toContain('within 1 day of your next sign-in');
    const many = renderMail(branding, securityNoticeMail(branding, { notice: { kind: 'passkeys-removed', count: 3, graceDays: 14 }, accountUrl }));
    expect(many.subject).toBe('Passkeys were removed from your Acme ID account');
    expect(many.text).toContain('removed 3 passkeys');
    expect(many.text).toContain('within 14 days');
    const now = renderMail(branding, securityNoticeMail(branding, { notice: { kind: 'two-factor-reset', graceDays: 0 }, accountUrl }));
    expect(now.text).toContain('when you next sign in');
  });
});
