import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
// The copy this form shows loads with it.
import '../i18n/en/auth.ts';
import { useT } from '../i18n/use-t.ts';
import { AuthUnavailable, GoogleUnavailable, signIn, signInWithGoogle, signUp } from '../lib/sign-in.ts';

/** Login and signup: e-mail and password, or Google; success goes home. */
export function AuthForm({ mode }: { mode: 'login' | 'signup' }) {
  const t = useT();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  /** The provider's message; the site's own reasons in the visitor's language. */
  function messageOf(error: unknown): string {
    if (error instanceof AuthUnavailable) return t('auth.unavailable');
    if (error instanceof GoogleUnavailable) return t('auth.googleUnavailable');
    return error instanceof Error ? error.message : String(error);
  }

  async function attempt(action: () => Promise<unknown>, prefix: string) {
    setBusy(true);
    try {
      await action();
      void navigate('/');
    } catch (error) {
      window.alert(prefix + messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    void (mode === 'login'
      ? attempt(() => signIn(email, password), t('auth.loginFailed'))
      : attempt(() => signUp(email, password), t('auth.signupFailed')));
  }

  return (
    <div className="page narrow auth">
      <h1>{t(mode === 'login' ? 'auth.loginTitle' : 'auth.signupTitle')}</h1>
      <form className="stack" onSubmit={submit}>
        <div className="field">
          <label htmlFor="auth-email">{t('auth.email')}</label>
          <input
            id="auth-email"
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="auth-password">{t('auth.password')}</label>
          <input
            id="auth-password"
            type="password"
            required
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <button type="submit" className="button primary" disabled={busy}>
          {t(mode === 'login' ? 'auth.login' : 'auth.signup')}
        </button>
      </form>
      <p className="or">{t('auth.or')}</p>
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => void attempt(signInWithGoogle, t('auth.googleFailed'))}
      >
        {t('auth.google')}
      </button>
      <p>
        {mode === 'login' ? (
          <>
            {t('auth.noAccount')} <Link to="/signup">{t('auth.signup')}</Link>
          </>
        ) : (
          <>
            {t('auth.haveAccount')} <Link to="/login">{t('auth.login')}</Link>
          </>
        )}
      </p>
    </div>
  );
}
