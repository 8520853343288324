import { AppError, isAppError, validationError } from '../../errors/app-error';

// Errors of apply's writes, told at the item of the sent manifest they concern. The concepts' own
// checks (client rules, SAML settings, scopes in use...) name fields relative to their item (`Scopes`,
// `Saml.IdpCertificate`); here those become JSON pointers under the item (`/OAuthClients/2/Scopes`).

export function itemError(pointer: string, message: string): AppError {
  return validationError({ [pointer]: [message] }, 'The manifest is not valid; nothing was changed.');
}

export async function atItem<T>(pointer: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (!isAppError(e)) throw e;
    const errors = e.errors
      ? Object.fromEntries(Object.entries(e.errors).map(([field, messages]) => [`${pointer}/${field.split('.').join('/')}`, messages]))
      : e.status < 500
        ? { [pointer]: [e.detail ?? e.message] }
        : undefined;
    throw new AppError(e.code, { detail: e.detail, errors, extensions: e.extensions });
  }
}
