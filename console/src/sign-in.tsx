import { useId, useState, type FormEvent } from 'react';
import type { Me } from './api/types.ts';
import { signIn } from './session.tsx';
import { ProblemBanner } from './ui/problem-banner.tsx';

/** The sign-in form: an API key, checked against the API, kept in memory only. */
export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const keyId = useId();
  const hintId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(key));
      setKey('');
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <form className="card sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <p className="brand-mark" aria-hidden="true">V</p>
        <h1 id="sign-in-title">Sign in to the reviewer console</h1>
        <p className="muted">Review parked runs: why they stopped, the payload, where every value came from.</p>
        <label htmlFor={keyId}>API key</label>
        <input
          id={keyId}
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          placeholder="vt_…"
          aria-describedby={hintId}
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <p id={hintId} className="hint">
          A reviewer or admin key (<code>vetted keys create --reviewer rv_…</code>). It stays in this tab's memory: reloading signs you out.
        </p>
        <ProblemBanner error={error} />
        <button type="submit" className="button-primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
