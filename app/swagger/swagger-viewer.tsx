'use client';

import { useEffect, useRef, useState } from 'react';
import 'swagger-ui-dist/swagger-ui.css';
import './swagger-theme.css';

// Swagger UI from its self-contained distribution (swagger-ui-dist): swagger-ui-react's module
// graph breaks under Turbopack (swagger-api/swagger-ui#10599: its OpenAPI 3.1 namespace loses the
// registrations it makes as a side effect), the prebuilt bundle has no such graph. It carries its
// own React and renders into the element it is given; it is loaded in the browser only, as it
// touches `window`.
//
// Its requests are same-origin (the document's server is `/`): the browser sends the session
// cookie, and the Origin header the API's CSRF check wants on unsafe methods (lib/http). Under the
// page's Content-Security-Policy: no eval, no inline <style> (the stylesheet is a file served from
// 'self'; element styles are set through the DOM, which a CSP allows).

type Request = { url: string; credentials?: RequestCredentials } & Record<string, unknown>;

function sameOrigin(request: Request): Request {
  request.credentials = 'same-origin';
  return request;
}

export function SwaggerViewer({ url }: { url: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const container = host.current;
    if (!container) return;
    // A node of its own per mount: React's development double mount must not leave two viewers.
    const node = document.createElement('div');
    container.appendChild(node);
    let live = true;
    import('swagger-ui-dist/swagger-ui-es-bundle.js')
      .then(({ default: SwaggerUI }) => {
        if (!live) return;
        SwaggerUI({
          domNode: node,
          url,
          // Operations and schemas start collapsed: the document has a few hundred of them.
          docExpansion: 'none',
          defaultModelsExpandDepth: 0,
          deepLinking: true,
          filter: true,
          displayRequestDuration: true,
          requestInterceptor: sameOrigin,
        });
        setLoading(false);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      node.remove();
    };
  }, [url]);

  return (
    <>
      {loading && !failed && <p className="gh-swagger-note">Loading the API reference…</p>}
      {failed && (
        <p className="gh-swagger-note" role="alert">
          The API reference could not be loaded. The document itself is at <a href={url}>{url}</a>.
        </p>
      )}
      <div ref={host} />
    </>
  );
}
