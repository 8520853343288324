import { createHash } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { settings } from '../config/env';
import { settingsForHost } from '../domain/apps/app-settings';
import { safeLogoUrl } from '../domain/realm-settings/logo-url';
import type { RealmRecord } from '../realm/realm-record';
import { brandStyle } from '../web/brand-style';
import { engineCsp } from '../web/security-headers';

// The few pages the engine renders itself: the device-code entry and confirmation, the logout
// confirmation and its result, and errors. Plain server-rendered HTML without scripts or inline
// handlers (the engine CSP allows none), in the look of the hosted pages and with the branding of
// the App the Host routes to, as app/layout.tsx and app/_shell/realm-brand.tsx show it: its product
// name as text, its logo as an http(s) <img> only, its colour as the --brand custom properties.
const STYLE = `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f7fa;color:#1a2330}
main{max-width:26rem;margin:10vh auto;padding:2rem;background:#fff;border:1px solid #dde3ea;border-top:4px solid var(--brand);border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:1.4rem;margin:0 0 1rem}p{margin:.5rem 0 1rem}.err{color:#b3261e}a{color:var(--brand)}
label{display:block;font-weight:600;margin:0 0 .4rem}
input[type=text]{width:100%;box-sizing:border-box;font:inherit;font-size:1.2rem;letter-spacing:.15em;text-transform:uppercase;text-align:center;padding:.6rem;border:1px solid #aab4c0;border-radius:8px;margin-bottom:1rem}
input[type=text]:focus{outline:2px solid var(--brand);outline-offset:1px}
button{font:inherit;padding:.6rem 1rem;border-radius:8px;border:1px solid var(--brand);background:var(--brand);color:var(--brand-ink);cursor:pointer;width:100%;margin-bottom:.5rem}
button.secondary{background:#fff;color:var(--brand)}code{font-size:1.5rem;letter-spacing:.1em}
.brand{display:flex;align-items:center;gap:.6rem;margin:0 0 1rem;color:#5b6475;font-size:.9rem}.brand img{height:32px;max-width:160px;object-fit:contain}`;

/** The CSP hash of the pages' fixed inline style (lib/web/security-headers.ts engineCsp). */
export const PAGE_STYLE_HASH = styleHash(STYLE);

function styleHash(css: string): string {
  return `sha256-${createHash('sha256').update(css).digest('base64')}`;
}

function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The branding of an engine page: the App's (else the realm's) product name, logo and colour. */
export type PageBrand = { productName: string; logoUrl: string | null; primaryColor: string | null };

function brandHtml(brand: PageBrand): string {
  const logo = safeLogoUrl(brand.logoUrl);
  return `<header class="brand">${logo ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(brand.productName)} logo" referrerpolicy="no-referrer">` : ''}<span>${escapeHtml(brand.productName)}</span></header>`;
}

/** The page and the CSP that lets exactly its two styles apply: the fixed one and the brand colour. */
function pageHtml(title: string, body: string, brand: PageBrand): { html: string; csp: string } {
  const colours = brandStyle(brand.primaryColor);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · ${escapeHtml(brand.productName)}</title><style>${STYLE}</style><style>${colours}</style></head><body><main>${brandHtml(brand)}${body}</main></body></html>`;
  return { html, csp: engineCsp({ styleHashes: [PAGE_STYLE_HASH, styleHash(colours)], publicScheme: settings().publicScheme }) };
}

async function pageBrand(realm: RealmRecord, host: string | undefined): Promise<PageBrand> {
  const { settings: s } = await settingsForHost(realm, host);
  return {
    productName: s.Branding.ProductName?.trim() || realm.displayName,
    logoUrl: s.Branding.LogoUrl ?? null,
    primaryColor: s.Branding.PrimaryColor ?? null,
  };
}

/** An absolute http(s) URL, else null: a client's home page is only ever a plain link. */
function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The engine's page renderers for one realm, each showing the branding of the App the Host routes to. */
export function enginePages(realm: RealmRecord) {
  const render = async (ctx: KoaContextWithOIDC, title: string, body: (brand: PageBrand) => string): Promise<void> => {
    const brand = await pageBrand(realm, ctx.req.headers.host);
    const page = pageHtml(title, body(brand), brand);
    // Replaces the policy dispatch.ts set before the engine ran: this page's brand style joins it.
    ctx.set('content-security-policy', page.csp);
    ctx.type = 'html';
    ctx.body = page.html;
  };
  return {
    // The engine's own entry form carries an inline onfocus handler the CSP blocks, and an input
    // without a label: this one posts the same fields (the action and the session's xsrf secret the
    // engine has just set, oidc-provider lib/actions/code_verification.js) with a labelled input.
    async userCodeInputSource(ctx: KoaContextWithOIDC, _form: string, _out?: unknown, err?: Error & { userCode?: string }): Promise<void> {
      const message = !err
        ? '<p>Enter the code shown on your device.</p>'
        : err.userCode || err.name === 'NoCodeError'
          ? '<p class="err" role="alert" id="user_code_error">That code is not valid. Check it and try again.</p>'
          : err.name === 'AbortedError'
            ? '<p class="err" role="alert" id="user_code_error">The sign-in request was cancelled.</p>'
            : '<p class="err" role="alert" id="user_code_error">Something went wrong. Try again.</p>';
      const action = ctx.oidc.urlFor('code_verification');
      const secret = (ctx.oidc.session?.state as { secret?: string } | undefined)?.secret ?? '';
      const value = err?.userCode ? ` value="${escapeHtml(err.userCode)}"` : '';
      const described = err ? ' aria-describedby="user_code_error" aria-invalid="true"' : '';
      const form =
        `<form id="op.deviceInputForm" novalidate method="post" action="${escapeHtml(action)}">` +
        `<input type="hidden" name="xsrf" value="${escapeHtml(secret)}">` +
        `<label for="user_code">Code</label>` +
        `<input id="user_code" type="text" name="user_code"${value}${described} autofocus autocomplete="off" autocapitalize="characters" spellcheck="false">` +
        `</form>`;
      await render(
        ctx,
        'Connect a device',
        () => `<h1>Connect a device</h1>${message}${form}<button type="submit" form="op.deviceInputForm">Continue</button>`,
      );
    },

    async userCodeConfirmSource(
      ctx: KoaContextWithOIDC,
      form: string,
      client: { clientName?: string; clientId: string },
      _info: unknown,
      userCode: string,
    ): Promise<void> {
      await render(
        ctx,
        'Confirm the device',
        () =>
          `<h1>Confirm the device</h1><p><strong>${escapeHtml(client.clientName || client.clientId)}</strong> wants to sign in. Your device should show this code:</p><p><code>${escapeHtml(userCode)}</code></p><p>If it does not, or you did not start this, cancel.</p>${form}<button autofocus type="submit" form="op.deviceConfirmForm">Continue</button><button class="secondary" type="submit" form="op.deviceConfirmForm" value="yes" name="abort">Cancel</button>`,
      );
    },

    async deviceSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
      await render(ctx, 'Device connected', () => '<h1>Device connected</h1><p>You are signed in on your device. You can close this page.</p>');
    },

    async logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
      await render(
        ctx,
        'Sign out',
        () =>
          `<h1>Sign out?</h1><p>You will be signed out of this site and of the applications that use it.</p>${form}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button><button class="secondary" type="submit" form="op.logoutForm">Stay signed in</button>`,
      );
    },

    async postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
      await render(ctx, 'Signed out', () => '<h1>Signed out</h1><p>You are signed out. You can close this page.</p><p><a href="/login">Sign in again</a></p>');
    },

    // A way back: to the application's home page when the request named a known client that has one
    // (its client_uri), else to this site's start page (`/`: the sign-in page, or the account area).
    async renderError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }): Promise<void> {
      const client = ctx.oidc?.client;
      const clientHome = httpUrl(client?.clientUri);
      await render(ctx, 'Sign-in problem', (brand) => {
        const back = clientHome
          ? `<a href="${escapeHtml(clientHome)}" rel="noreferrer">Back to ${escapeHtml(client?.clientName || clientHome)}</a>`
          : `<a href="/">Go to ${escapeHtml(brand.productName)}</a>`;
        return `<h1>Something is not right</h1><p>The application sent a request this service cannot accept.</p><p class="err" role="alert"><strong>${escapeHtml(out.error)}</strong>${out.error_description ? `: ${escapeHtml(out.error_description)}` : ''}</p><p>${back}</p>`;
      });
    },
  };
}
