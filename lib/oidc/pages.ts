import { createHash } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { safeLogoUrl } from '../domain/realm-settings/logo-url';
import { realmSettings } from '../domain/realm-settings/realm-settings';
import type { RealmRecord } from '../realm/realm-record';

// The few pages the engine renders itself: the device-code entry and confirmation, the logout
// confirmation and its result, and errors. Plain server-rendered HTML (no scripts, no external
// assets), in the same calm look as the hosted pages.
const STYLE = `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f7fa;color:#1a2330}
main{max-width:26rem;margin:10vh auto;padding:2rem;background:#fff;border:1px solid #dde3ea;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:1.4rem;margin:0 0 1rem}p{margin:.5rem 0 1rem}.err{color:#b3261e}
input[type=text]{width:100%;box-sizing:border-box;font:inherit;font-size:1.2rem;letter-spacing:.15em;text-transform:uppercase;text-align:center;padding:.6rem;border:1px solid #aab4c0;border-radius:8px;margin-bottom:1rem}
button{font:inherit;padding:.6rem 1rem;border-radius:8px;border:1px solid #1f4f8f;background:#1f4f8f;color:#fff;cursor:pointer;width:100%;margin-bottom:.5rem}
button.secondary{background:#fff;color:#1f4f8f}code{font-size:1.5rem;letter-spacing:.1em}
.brand{display:flex;align-items:center;gap:.6rem;margin:0 0 1rem;color:#5b6475;font-size:.9rem}.brand img{height:32px;max-width:160px;object-fit:contain}`;

/** The CSP hash of the pages' one inline style (lib/web/security-headers.ts engineCsp). */
export const PAGE_STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The realm's branding on an engine page, as on the hosted pages (app/_shell/realm-brand.tsx). */
export type PageBrand = { productName: string; logoUrl: string | null };

function brandHtml(brand: PageBrand): string {
  const logo = safeLogoUrl(brand.logoUrl);
  return `<header class="brand">${logo ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(brand.productName)} logo" referrerpolicy="no-referrer">` : ''}<span>${escapeHtml(brand.productName)}</span></header>`;
}

function pageHtml(title: string, body: string, brand?: PageBrand): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${brand ? brandHtml(brand) : ''}${body}</main></body></html>`;
}

async function pageBrand(realm: RealmRecord): Promise<PageBrand> {
  const s = await realmSettings(realm);
  return { productName: s.Branding.ProductName?.trim() || realm.displayName, logoUrl: s.Branding.LogoUrl ?? null };
}

/** The engine's page renderers for one realm, each showing the realm's branding. */
export function enginePages(realm: RealmRecord) {
  const render = async (ctx: KoaContextWithOIDC, title: string, body: string): Promise<void> => {
    const brand = await pageBrand(realm);
    ctx.type = 'html';
    ctx.body = pageHtml(title, body, brand);
  };
  return {
    async userCodeInputSource(ctx: KoaContextWithOIDC, form: string, _out?: unknown, err?: Error & { userCode?: string }): Promise<void> {
      const message = !err
        ? '<p>Enter the code shown on your device.</p>'
        : err.userCode || err.name === 'NoCodeError'
          ? '<p class="err" role="alert">That code is not valid. Check it and try again.</p>'
          : err.name === 'AbortedError'
            ? '<p class="err" role="alert">The sign-in request was cancelled.</p>'
            : '<p class="err" role="alert">Something went wrong. Try again.</p>';
      await render(ctx, 'Connect a device', `<h1>Connect a device</h1>${message}${form}<button type="submit" form="op.deviceInputForm">Continue</button>`);
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
        `<h1>Confirm the device</h1><p><strong>${escapeHtml(client.clientName || client.clientId)}</strong> wants to sign in. Your device should show this code:</p><p><code>${escapeHtml(userCode)}</code></p><p>If it does not, or you did not start this, cancel.</p>${form}<button autofocus type="submit" form="op.deviceConfirmForm">Continue</button><button class="secondary" type="submit" form="op.deviceConfirmForm" value="yes" name="abort">Cancel</button>`,
      );
    },

    async deviceSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
      await render(ctx, 'Device connected', '<h1>Device connected</h1><p>You are signed in on your device. You can close this page.</p>');
    },

    async logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
      await render(
        ctx,
        'Sign out',
        `<h1>Sign out?</h1><p>You will be signed out of this site and of the applications that use it.</p>${form}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button><button class="secondary" type="submit" form="op.logoutForm">Stay signed in</button>`,
      );
    },

    async postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
      await render(ctx, 'Signed out', '<h1>Signed out</h1><p>You are signed out. You can close this page.</p><p><a href="/login">Sign in again</a></p>');
    },

    async renderError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }): Promise<void> {
      await render(
        ctx,
        'Sign-in problem',
        `<h1>Something is not right</h1><p>The application sent a request this service cannot accept.</p><p class="err" role="alert"><strong>${escapeHtml(out.error)}</strong>${out.error_description ? `: ${escapeHtml(out.error_description)}` : ''}</p>`,
      );
    },
  };
}
