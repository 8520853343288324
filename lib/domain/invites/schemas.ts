import { z } from 'zod';

// Wire shapes of the first-administrator invite (spec 3.3, 4.8): what a realm's creation or an
// explicit invite asks for, and the invite it answers with.

export const initialAdminSchema = z.object({
  UserName: z.string().trim().min(1, 'Enter a user name.').max(128),
  Email: z.email('Enter a valid e-mail address.').max(254),
  Firstname: z.string().trim().max(100).nullish(),
  Lastname: z.string().trim().max(100).nullish(),
});
export type InitialAdminInput = z.infer<typeof initialAdminSchema>;

export const adminInviteSchema = z.object({
  UserName: z.string(),
  Email: z.string(),
  ExpiresAt: z.date(),
  MagicLinkUrl: z.string(),
});
export type AdminInviteDto = z.infer<typeof adminInviteSchema>;
