import { z } from 'zod';

// Wire shapes of the passkey list and of naming a new passkey (spec 4.3), shared by the API and the
// account UI.
export const passkeySchema = z.object({
  Id: z.string(),
  DisplayName: z.string(),
  CreatedAt: z.date(),
  LastUsedAt: z.date().nullish(),
  DeviceType: z.string().nullish(),
  BackedUp: z.boolean(),
  Transports: z.array(z.string()),
});

export const passkeyNameSchema = z.object({ DisplayName: z.string().trim().max(100, 'Use at most 100 characters.').nullish() });
