import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
// The copy this form shows loads with it.
import '../i18n/en/auth.ts';
import { useT } from '../i18n/use-t.ts';
import { authProblem } from '../lib/auth-problems.ts';
import {
  AuthUnavailable,
  GoogleUnavailable,
  sendPasswordReset,
  signIn,
  signInWithGoogle,
  signUp,
} from '../lib/sign-in.ts';

/** What the form says under it: a problem (an alert) or news (a status). */
type Notice = { kind: 'problem' | 'news'; text: string } | undefined;

/** Login and signup: e-mail and password, or Google; success goes home. */
export function AuthForm({ mode }: { mode: 'login' | 'signup' }) {
  const t = useT();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>();

  /** The provider's message; the site's own reasons in the visitor's language. */
  function messageOf(error: unknown): string {
    if (error instanceof AuthUnavailable) return t('auth.unavailable');
    if (error instanceof GoogleUnavailable) return t('auth.googleUnavailable');
    return error instanceof Error ? error.message : String(error);
  }

  /** The same in plain words, in the visitor's language, shown in the form. */
  function problemOf(error: unknown): string {
    if (error instanceof AuthUnavailable || error instanceof GoogleUnavailable) return messageOf(error);
    return t(`auth.problems.${authProblem(error)}`);
  }

  async function attempt(action: () => Promise<unknown>, prefix: string) {
    setBusy(true);
    setNotice(undefined);
    try {
      await action();
      void navigate('/');
    } catch (error) {
      setNotice({ kind: 'problem', text: problemOf(error) });
      window.alert(prefix + messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  async function forgot() {
    const address = email.trim();
    if (!address) {
      setNotice({ kind: 'problem', text: t('auth.resetNeedsEmail') });
      document.getElementById('auth-email')?.focus();
      return;
    }
    setBusy(true);
    setNotice(undefined);
    try {
      await sendPasswordReset(address);
      setNotice({ kind: 'news', text: t('auth.resetSent', { email: `\u2068${address}\u2069` }) });
    } catch (error) {
      setNotice({ kind: 'problem', text: problemOf(error) });
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
        {mode === 'login' && (
          <button type="button" className="link-button" disabled={busy} onClick={() => void forgot()}>
            {t('auth.forgot')}
          </button>
        )}
        {notice?.kind === 'problem' && (
          // A new element per message, so that each is announced as it appears.
          <p key={notice.text} role="alert" className="notice error">
            {notice.text}
          </p>
        )}
        <p role="status" className="notice">
          {notice?.kind === 'news' ? notice.text : ''}
        </p>
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
