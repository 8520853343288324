import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { authOptions } from '../../../../lib/auth';

// next-auth's endpoints: /api/auth/signin/gatehouse, /api/auth/callback/gatehouse, /api/auth/session, ...
type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(req: NextRequest, context: Context): Promise<Response> {
  return NextAuth(req, context, authOptions());
}

export { handler as GET, handler as POST };
