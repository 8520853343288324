import { describe, expect, it } from 'vitest';
import { renderMail } from '../layout';
import { accountDeletionMail } from './account-deletion';
import { emailVerificationMail } from './email-verification';
import { lifetimeText } from './lifetime';
import { passwordResetMail } from './password-reset';
import { profileEmailMail } from './profile-email';

describe('lifetimeText', () => {
  it.each([
    [30, '30 minutes'],
    [1, '1 minute'],
    [60, '1 hour'],
    [24 * 60, '24 hours'],
    [48 * 60, '2 days'],
    [90, '90 minutes'],
  ])('%d minutes -> %s', (m, text) => {
    expect(lifetimeText(m)).toBe(text);
  });
});

describe('account mail (password reset, e-mail verification, profile e-mail)', () => {
  const branding = { productName: 'Acme ID', primaryColor: '#aa0000' };
  const url = 'http://acme.test/reset-password?token=abc&redirect=%2Fconsole';

  it.each([
    ['password reset', passwordResetMail, /30 minutes/, 30],
    ['e-mail verification', emailVerificationMail, /24 hours/, 1440],
    ['profile e-mail', profileEmailMail, /24 hours/, 1440],
    ['account deletion', accountDeletionMail, /24 hours/, 1440],
  ] as const)('%s: branded, with the link and its lifetime in both parts', (_name, build, lifetime, minutes) => {
    const content = build(branding, { url, lifetimeMinutes: minutes });
    const mail = renderMail(branding, content);
    expect(mail.subject).toContain('Acme ID');
    expect(mail.text).toContain(url);
    expect(mail.text).toMatch(lifetime);
    expect(mail.html).toMatch(lifetime);
    expect(mail.html).toContain('#aa0000');
    expect(mail.html).toContain(url.replace(/&/g, '&amp;'));
  });
});
