import { AppError } from '../../errors/app-error';
import { isValidDomain } from '../../realm/host';

/** Validates and de-duplicates a realm's domain list (already trimmed and lower-cased by the schema). */
export function checkDomains(domains: string[]): string[] {
  const bad = domains.filter((d) => !isValidDomain(d));
  if (bad.length) {
    throw new AppError('Realm.DomainInvalid', {
      errors: { Domains: bad.map((d) => `"${d.slice(0, 80)}" is not a valid host name (no scheme, path or port).`) },
    });
  }
  return [...new Set(domains)];
}
