// How large a posted SAML response may be (issue 30 item 1). A real one is a few kilobytes (an
// assertion, a signature, a certificate, some attributes), 30 to 300 elements, 5 to 10 deep; these
// limits leave room for hundreds of attribute values and a certificate chain, and keep the cost of
// the checks bounded: the form parse on the event loop, the scan (response-scan.ts), and the parse
// and signature check in the worker (validate-pool.ts). The element count is what node-saml's
// time follows (its XPath queries walk the document): 4,000 elements cost it about 0.6 s of CPU,
// hence 1,024. Measured in benchmarks/README.md, "SAML ACS".

export const MAX_RESPONSE_BYTES = 128 * 1024;
export const RESPONSE_SHAPE_LIMITS = { maxElements: 1024, maxDepth: 32 } as const;

/** The base64 of MAX_RESPONSE_BYTES, with a line break (CR LF) every 64 characters as some IdPs send. */
const base64Chars = Math.ceil(MAX_RESPONSE_BYTES / 3) * 4;
export const MAX_ENCODED_RESPONSE_CHARS = base64Chars + Math.ceil(base64Chars / 64) * 2;

/**
 * The form body of the ACS: the field above URL-encoded (`+`, `/`, `=` and line breaks take three
 * characters; about one base64 character in 30 is one of them), RelayState and the field names.
 * Anything larger is refused as the body is read (413), before it is parsed.
 */
export const MAX_ACS_BODY_BYTES = 256 * 1024;

/** How much of the document's beginning is read for the root element's start tag. */
export const ROOT_TAG_PREFIX_BYTES = 16 * 1024;
