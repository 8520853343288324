import { flagRoutes } from '@/lib/api/flag-routes';

export const GET = flagRoutes.GET;
export const POST = flagRoutes.POST;
export const OPTIONS = flagRoutes.OPTIONS;
