// Authentication context classes (issue 4.2, `acr_values` and step-up). Two levels: a single factor,
// and a second factor or a phishing-resistant one (a passkey). `amr` values are those the sign-in
// recorded on the session (lib/domain/auth/sign-in.ts).
const ACR_SINGLE = 'urn:gatehouse:acr:1fa';
const ACR_MULTI = 'urn:gatehouse:acr:mfa';
export const ACR_VALUES = [ACR_SINGLE, ACR_MULTI];

export function acrOf(amr: readonly string[]): string {
  // Two different methods, or a passkey (hardware-bound key, user-verified).
  return new Set(amr).size >= 2 || amr.includes('hwk') ? ACR_MULTI : ACR_SINGLE;
}

export function meetsAcr(amr: readonly string[], requested: string): boolean {
  if (requested === ACR_MULTI) return acrOf(amr) === ACR_MULTI;
  return true;
}
