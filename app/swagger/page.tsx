import type { Metadata } from 'next';
import { SwaggerViewer } from './swagger-viewer';

// GET /swagger: the OpenAPI document (/swagger/v1/swagger.json, the same on every realm host) in
// Swagger UI, a maintained viewer, dressed in the Gatehouse look (swagger-theme.css). "Try it out"
// calls the API on this host with the visitor's session cookie, so it acts as the signed-in person.

export const metadata: Metadata = { title: 'API reference' };

export default function SwaggerPage() {
  return (
    // Swagger UI renders its own <main>.
    <div className="gh-swagger">
      <SwaggerViewer url="/swagger/v1/swagger.json" />
    </div>
  );
}
