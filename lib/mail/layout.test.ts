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

describe('renderMail branding extras', () => {
  const content = { subject: 'S', heading: 'H', paragraphs: ['p'] };

  it('shows an http(s) logo in HTML and adds the footer line to both parts', () => {
    const mail = renderMail(
      { productName: 'Shop', primaryColor: '#112233', logoUrl: 'https://shop.test/l.png?a=1&b=2', footerText: 'Shop Ltd, 1 Road' },
      content,
    );
    expect(mail.html).toContain('<img src="https://shop.test/l.png?a=1&amp;b=2" alt="Shop"');
    expect(mail.text).toContain('Shop Ltd, 1 Road');
    expect(mail.html).toContain('Shop Ltd, 1 Road');
  });

  it('refuses a logo URL that is not http(s)', () => {
    const mail = renderMail({ productName: 'Shop', primaryColor: '#112233', logoUrl: 'javascript:alert(1)' }, content);
    expect(mail.html).not.toContain('<img');
  });
});
