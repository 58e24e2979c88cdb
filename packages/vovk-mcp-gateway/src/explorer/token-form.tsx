'use client';
// Asks for the gateway token when the gateway answers 401 (GATEWAY_TOKEN is set), and keeps it for this tab.
import { type FormEvent, useState } from 'react';
import { saveToken } from '../browser/token.js';

export function TokenForm({ onSaved }: { onSaved(): void }) {
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    saveToken(token.trim());
    onSaved();
  };
  return (
    <form onSubmit={submit} aria-label="Gateway token" style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap', margin: '1rem 0' }}>
      <label htmlFor="gateway-token" style={{ flexBasis: '100%' }}>
        This gateway requires a token (<code>GATEWAY_TOKEN</code>, or an OAuth access token). It is kept for this browser tab only.
      </label>
      <input
        id="gateway-token"
        type="password"
        autoComplete="off"
        value={token}
        onChange={(event) => setToken(event.target.value)}
        style={{ flex: '1 1 16rem', padding: '0.4rem' }}
      />
      <button type="submit" disabled={!token.trim()}>
        Use token
      </button>
    </form>
  );
}
