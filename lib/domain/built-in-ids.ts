// The ids of what every new realm is seeded with (spec 2.4, domain/realms/seed-realm.ts). Fixed strings,
// so that manifests, tests and later migrations can name them in every realm; a module of their own,
// so that the concepts that need one id do not depend on realm creation.
export const BUILT_IN_IDS = {
  mainApp: '00000000-0000-4000-8000-000000000001',
  controlPlaneApp: '00000000-0000-4000-8000-000000000002',
  internalProvider: '00000000-0000-4000-8000-000000000010',
  administratorsGroup: '00000000-0000-4000-8000-000000000020',
  realmAdminRole: '00000000-0000-4000-8000-000000000030',
  managementApi: '00000000-0000-4000-8000-000000000040',
  managementScope: '00000000-0000-4000-8000-000000000041',
  inviteReadScope: '00000000-0000-4000-8000-000000000042',
  inviteWriteScope: '00000000-0000-4000-8000-000000000043',
  passkeysScope: '00000000-0000-4000-8000-000000000044',
} as const;
