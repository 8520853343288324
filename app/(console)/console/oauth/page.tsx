import { redirect } from 'next/navigation';

// /console/oauth has nothing of its own yet: the clients are its only screen.
export default function OAuthPage() {
  redirect('/console/oauth/clients');
}
