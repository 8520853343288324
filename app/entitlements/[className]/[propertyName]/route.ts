import { entitlementRoutes } from '@/lib/api/flag-routes';

export const GET = entitlementRoutes.GET;
export const POST = entitlementRoutes.POST;
export const OPTIONS = entitlementRoutes.OPTIONS;
