'use client';
// Where the authorization server sends the browser back after sign-in: exchanges the code, then returns to the page.
import { useEffect, useState } from 'react';
import { completeSignIn } from 'vovk-mcp-gateway/browser';

/** One exchange per page load: a code is good once, and React may run an effect twice in development. */
let exchange: Promise<string> | null = null;

export default function OAuthCallbackPage() {
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    exchange ??= completeSignIn(new URL(location.href));
    exchange.then(
      (returnTo) => location.replace(returnTo),
      (error: unknown) => setFailure(error instanceof Error ? error.message : String(error)),
    );
  }, []);
  return (
    <main style={{ maxWidth: '40rem', margin: '3rem auto', padding: '0 1rem' }}>
      <h1>Signing in</h1>
      {failure ? (
        <>
          <p role="alert">Sign-in failed: {failure}</p>
          <p>
            Back to <a href="/">the explorer</a> or <a href="/board">the board</a>.
          </p>
        </>
      ) : (
        <p role="status">Finishing the sign-in…</p>
      )}
    </main>
  );
}
