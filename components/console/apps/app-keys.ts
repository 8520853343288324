// Query keys of the App pages; they share the `apps` root with the directory's App lookups
// (directory-types.ts), so a change refreshes the role form's catalog too.
export const appKeys = {
  all: ['apps'] as const,
  list: (q: object) => ['apps', 'list', q] as const,
};
