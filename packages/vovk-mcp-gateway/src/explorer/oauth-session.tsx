'use client';
// The pages' OAuth session: Sign in (beside the paste-a-token form) when the gateway asks, who is signed in, Sign out.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { type SignInOffer, signedInUser, signIn, signInOffer, signOut, subscribeToSession } from '../browser/oauth.js';
import { TokenForm } from './token-form.js';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Shown after a 401: Sign in when the gateway's challenge names an authorization server, and the token form. */
export function SignInPanel({ onTokenSaved }: { onTokenSaved(): void }) {
  const [offer, setOffer] = useState<SignInOffer | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    signInOffer().then(
      (found) => active && setOffer(found ?? null),
      (error: unknown) => active && setFailure(`could not read the gateway's sign-in metadata (${messageOf(error)})`),
    );
    return () => {
      active = false;
    };
  }, []);

  const start = async (chosen: SignInOffer) => {
    setLeaving(true);
    setFailure(null);
    try {
      await signIn(chosen); // the browser goes to the authorization server
    } catch (error) {
      setFailure(messageOf(error));
      setLeaving(false);
    }
  };

  return (
    <section aria-label="Sign in" style={{ margin: '1rem 0' }}>
      {offer && (
        <p style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', flexWrap: 'wrap' }}>
          <span>
            This gateway takes OAuth sign-in at <code>{offer.authorizationServer}</code>.
          </span>
          <button type="button" onClick={() => start(offer)} disabled={leaving}>
            Sign in
          </button>
        </p>
      )}
      {failure && <p role="alert">Sign-in failed: {failure}</p>}
      <TokenForm onSaved={onTokenSaved} />
    </section>
  );
}

/** Who is signed in (the access token's subject) and Sign out; nothing without an OAuth session. */
export function SessionBadge({ className, onSignedOut }: { className?: string; onSignedOut(): void }) {
  const user = useSyncExternalStore(subscribeToSession, signedInUser, () => null);
  if (user === null) return null;
  return (
    <span className={className} style={{ display: 'inline-flex', gap: '0.5rem', alignItems: 'center' }}>
      <span>
        Signed in{user && ' as '}
        {user && <strong data-testid="signed-in-user">{user}</strong>}
      </span>
      <button type="button" onClick={() => signOut().then(onSignedOut)}>
        Sign out
      </button>
    </span>
  );
}
