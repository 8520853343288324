import { z } from 'zod';
import { appInfo } from '../domain/realms/app-info';
import { defineEndpoint } from '../http/endpoint';

const fieldPolicy = z.enum(['Off', 'Optional', 'Required']);

export const appInfoEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/app-info',
  summary: 'Public realm metadata, branding and the registration-fields policy',
  tags: ['Public'],
  auth: 'anonymous',
  response: z.object({
    Realm: z.string(),
    DisplayName: z.string(),
    Description: z.string().nullish(),
    PrimaryDomain: z.string(),
    IsControlPlane: z.boolean(),
    Branding: z.object({ ProductName: z.string(), PrimaryColor: z.string(), LogoUrl: z.string().nullish() }),
    RegistrationFields: z.object({ Email: z.literal('Required'), Username: fieldPolicy, Firstname: fieldPolicy, Lastname: fieldPolicy }),
    SelfRegistration: z.object({ Posture: z.enum(['Off', 'JitOnOtp', 'ExplicitEndpoint']), RequireInviteCode: z.boolean() }),
    SignIn: z.object({ Password: z.boolean(), PasswordlessOnly: z.boolean(), EmailOtp: z.boolean(), MagicLink: z.boolean(), Passkeys: z.boolean() }),
  }),
  handler: async ({ ctx }) => appInfo(ctx),
});
