import { describe, expect, it } from 'vitest';
import { renderMail } from './layout';

describe('renderMail', () => {
  const mail = renderMail(
    { productName: 'Acme <Corp>', primaryColor: 'red;background:url(x)' },
    { subject: 'Reset', heading: 'Reset your password', paragraphs: ['Hello "you"'], action: { label: 'Reset', url: 'http://a.test/reset?token=a&b=1' } },
  );

  it('writes the action URL in full in both parts', () => {
    expect(mail.text).toContain('http://a.test/reset?token=a&b=1');
    expect(mail.html).toContain('http://a.test/reset?token=a&amp;b=1');
  });

  it('escapes HTML and refuses a colour that is not a hex colour', () => {
    expect(mail.html).toContain('Acme &lt;Corp&gt;');
    expect(mail.html).toContain('Hello &quot;you&quot;');
    expect(mail.html).not.toContain('url(x)');
  });
});
