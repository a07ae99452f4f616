import { useState, type FormEvent } from 'react';
import { postJson } from '../lib/api.ts';
import { useT } from '../i18n/use-t.ts';

export function Newsletter() {
  const t = useT();
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<'idle' | 'sending' | 'done' | 'failed'>('idle');

  async function subscribe(e: FormEvent) {
    e.preventDefault();
    setStatus('sending');
    if (await postJson('/api/v1/newsletter', { email })) {
      setEmail('');
      setStatus('done');
    } else setStatus('failed');
  }

  return (
    <form className="newsletter" onSubmit={subscribe}>
      <h2>{t('footer.newsletterTitle')}</h2>
      <p>{t('footer.newsletterText')}</p>
      <div className="inline-field">
        <label htmlFor="newsletter-email" className="visually-hidden">
          {t('footer.emailLabel')}
        </label>
        <input
          id="newsletter-email"
          type="email"
          name="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder={t('footer.emailLabel')}
          autoComplete="email"
        />
        <button type="submit" disabled={status === 'sending'}>
          {t('footer.subscribe')}
        </button>
      </div>
      <p role="status" className="form-status">
        {status === 'done' ? t('footer.subscribed') : status === 'failed' ? t('footer.subscribeFailed') : ''}
      </p>
    </form>
  );
}
