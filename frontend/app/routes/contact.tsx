import { useState, type FormEvent } from 'react';
import { contact } from '../i18n/en/contact.ts';
import { useT } from '../i18n/use-t.ts';
import { postJson } from '../lib/api.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta() {
  return pageMeta({
    title: `${contact.title} – Quire`,
    description: contact.description,
    path: '/contact',
  });
}

export default function Contact() {
  const t = useT();
  const [state, setState] = useState<'form' | 'sending' | 'sent' | 'failed'>('form');

  async function send(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setState('sending');
    const fields = Object.fromEntries(
      ['name', 'email', 'message', 'website'].map((k) => [k, String(form.get(k) ?? '')]),
    );
    setState((await postJson('/api/v1/contact', fields)) ? 'sent' : 'failed');
  }

  return (
    <div className="page narrow">
      <h1>{t('contact.title')}</h1>
      {state === 'sent' ? (
        <p role="status" className="thanks">
          {t('contact.thanks')}
        </p>
      ) : (
        <form className="stack" onSubmit={send}>
          <p>{t('contact.description')}</p>
          <div className="field">
            <label htmlFor="contact-name">{t('contact.name')}</label>
            <input id="contact-name" name="name" required autoComplete="name" maxLength={200} />
          </div>
          <div className="field">
            <label htmlFor="contact-email">{t('contact.email')}</label>
            <input id="contact-email" name="email" type="email" required autoComplete="email" maxLength={320} />
          </div>
          <div className="field">
            <label htmlFor="contact-message">{t('contact.message')}</label>
            <textarea id="contact-message" name="message" required rows={6} maxLength={5000} />
          </div>
          {/* Left empty by people; filled in by robots. */}
          <div className="honeypot" aria-hidden="true">
            <label htmlFor="contact-website">Website</label>
            <input id="contact-website" name="website" tabIndex={-1} autoComplete="off" />
          </div>
          <button type="submit" className="button primary" disabled={state === 'sending'}>
            {state === 'sending' ? t('contact.sending') : t('contact.send')}
          </button>
          {state === 'failed' && <p role="alert">{t('contact.failed')}</p>}
        </form>
      )}
    </div>
  );
}
