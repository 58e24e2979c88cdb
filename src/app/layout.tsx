// Root layout of the gateway's web pages.
import type { ReactNode } from 'react';

export const metadata = {
  title: 'Vovk MCP gateway',
  description: 'Vovk controllers served as REST routes and as MCP tools',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: 0 }}>{children}</body>
    </html>
  );
}
