import { redirect } from 'next/navigation';
import { pageUser } from '@/lib/http/page-context';

// `/`: the console for someone signed in, else sign-in.
export default async function Home() {
  redirect((await pageUser()) ? '/console' : '/login');
}
