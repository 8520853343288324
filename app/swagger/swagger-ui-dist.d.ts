// swagger-ui-dist ships no types: the few options app/swagger/swagger-viewer.tsx passes to the
// bundle's constructor (https://swagger.io/docs/open-source-tools/swagger-ui/usage/configuration/).
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  type SwaggerRequest = { url: string; credentials?: RequestCredentials } & Record<string, unknown>;
  export type SwaggerUIOptions = {
    domNode: HTMLElement;
    url: string;
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
    deepLinking?: boolean;
    filter?: boolean | string;
    displayRequestDuration?: boolean;
    tryItOutEnabled?: boolean;
    persistAuthorization?: boolean;
    requestInterceptor?: (request: SwaggerRequest) => SwaggerRequest;
  };
  const SwaggerUI: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUI;
}
