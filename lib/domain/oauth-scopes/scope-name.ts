import { z } from 'zod';

// A scope name is an RFC 6749 3.3 scope-token: printable ASCII except space, `"` and `\`. Clients
// list scopes by name, so the same shape is checked on both sides.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export const scopeNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(SCOPE_TOKEN, 'Use printable ASCII without spaces, " or \\ (RFC 6749 scope-token).')
  // Gatehouse's own markers (the engine's stand-in for an empty scope list) live under this prefix.
  .refine((name) => !name.toLowerCase().startsWith('urn:gatehouse:'), 'Names starting with urn:gatehouse: are reserved.');
