import type { ReactNode } from 'react';
import './hosted.css';

// The hosted sign-in pages share the few styles of hosted.css beside the global ones.
export default function HostedLayout({ children }: { children: ReactNode }) {
  return children;
}
