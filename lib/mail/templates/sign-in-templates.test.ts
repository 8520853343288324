import { describe, expect, it } from 'vitest';
import { renderMail } from '../layout';
import { emailOtpCodeMail } from './email-otp-code';
import { magicLinkMail } from './magic-link';

describe('sign-in mail (e-mail code, magic link)', () => {
  const branding = { productName: 'Acme ID', primaryColor: '#aa0000' };

  it('the code mail shows the code, its lifetime and the brand, and no other six-digit number', () => {
    const mail = renderMail(branding, emailOtpCodeMail(branding, { code: '042917', lifetimeMinutes: 10 }));
    expect(mail.subject).toBe('Your Acme ID sign-in code');
    expect(mail.text).toMatch(/10 minutes/);
    expect(mail.html).toMatch(/10 minutes/);
    expect(mail.html).toContain('#aa0000');
    expect(mail.text.match(/(?:^|\s)(\d{6})(?:\s|$)/m)?.[1]).toBe('042917');
    expect(mail.html).toContain('042917');
  });

  it('the second-step code mail says so', () => {
    const mail = renderMail(branding, emailOtpCodeMail(branding, { code: '111111', lifetimeMinutes: 10, secondFactor: true }));
    expect(mail.text).toMatch(/finish signing in/);
  });

  it('the magic-link mail carries the link in both parts and its lifetime', () => {
    const url = 'http://acme.test/api/account/magic-link/login?token=abc&user=u-1';
    for (const sentByAdministrator of [false, true]) {
      const mail = renderMail(branding, magicLinkMail(branding, { url, lifetimeMinutes: 15, sentByAdministrator }));
      expect(mail.subject).toBe('Sign in to Acme ID');
      expect(mail.text).toContain(url);
      expect(mail.html).toContain(url.replace(/&/g, '&amp;'));
      expect(mail.text).toMatch(/15 minutes/);
      expect(mail.text.includes('administrator')).toBe(sentByAdministrator);
    }
  });
});
