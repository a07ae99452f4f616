import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Avatar } from '../components/Avatar.tsx';
import { account } from '../i18n/en/account.ts';
import { toolKey, useLanguageCode, useT } from '../i18n/use-t.ts';
import { downloadUrl, readableName } from '../lib/api.ts';
import { authHeaders, useAuth, type User } from '../lib/auth.ts';
import { signOut, updateDisplayName } from '../lib/sign-in.ts';
import { localHistoryOf } from '../lib/history.ts';
import { pageMeta } from '../lib/seo.ts';
import { findTool } from '../lib/tools.ts';

export function meta() {
  return pageMeta({
    title: `${account.title} – Quire`,
    description: account.description,
    path: '/account',
    noindex: true,
  });
}

interface HistoryEntry {
  tool: string;
  date: string;
  download: string | null;
}

/** A tool's name in the current language; a workflow's steps joined by arrows. */
function useToolLabel() {
  const t = useT();
  return (tool: string) =>
    tool
      .split(',')
      .map((id) => (findTool(id) ? t(toolKey(id, 'name')) : id))
      .join(' → ');
}

function HistoryTable({ entries, showResults }: { entries: HistoryEntry[]; showResults: boolean }) {
  const t = useT();
  const language = useLanguageCode();
  const label = useToolLabel();
  const format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  if (entries.length === 0) return <p>{t('account.noHistory')}</p>;
  return (
    <table className="history">
      <thead>
        <tr>
          <th scope="col">{t('account.tool')}</th>
          <th scope="col">{t('account.date')}</th>
          {showResults && <th scope="col">{t('account.result')}</th>}
        </tr>
      </thead>
      <tbody>
        {entries.map((entry, i) => (
          <tr key={`${entry.date}-${i}`}>
            <td>{label(entry.tool)}</td>
            <td>
              <time dateTime={entry.date}>{format.format(new Date(entry.date))}</time>
            </td>
            {showResults && (
              <td>
                {entry.download ? (
                  <a href={downloadUrl(entry.download)} download={readableName(entry.download)}>
                    {t('account.download')}
                  </a>
                ) : (
                  t('account.expired')
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The signed-in user's own data from the gateway (`/api/v1/me/…`), and whether it failed to load. */
function useMine<T>(path: string, uid: string): [T | undefined, boolean] {
  const [data, setData] = useState<T>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    void (async () => {
      try {
        const res = await fetch(path, { headers: await authHeaders() });
        if (!res.ok) throw new Error(String(res.status));
        const body = (await res.json()) as T;
        if (current) setData(body);
      } catch {
        if (current) setFailed(true);
      }
    })();
    return () => {
      current = false;
    };
  }, [path, uid]);
  return [data, failed];
}

/** The workflows the user saved, each a link to its page, with its steps. */
function MyWorkflows({ uid }: { uid: string }) {
  const t = useT();
  const label = useToolLabel();
  const [mine, failed] = useMine<{
    workflows: { id: string; name: string; link: string; steps: { tool: string }[] }[];
  }>('/api/v1/me/workflows', uid);
  return (
    <section aria-labelledby="workflows-title">
      <h2 id="workflows-title">{t('account.workflows')}</h2>
      {failed ? (
        <p>{t('account.workflowsFailed')}</p>
      ) : mine && mine.workflows.length === 0 ? (
        <p>{t('account.noWorkflows')}</p>
      ) : (
        <ul className="my-workflows">
          {mine?.workflows.map((w) => (
            <li key={w.id}>
              <Link to={w.link}>{w.name}</Link>{' '}
              <span className="muted">{label(w.steps.map((s) => s.tool).join(','))}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SignedIn({ user }: { user: User }) {
  const t = useT();
  const navigate = useNavigate();
  const [name, setName] = useState(user.displayName ?? '');
  const [saved, setSaved] = useState('');
  const [history, historyFailed] = useMine<{ history: HistoryEntry[] }>('/api/v1/me/history', user.uid);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaved('');
    try {
      await updateDisplayName(name);
      setSaved(t('account.saved'));
    } catch (error) {
      setSaved(`${t('account.saveFailed')} ${error instanceof Error ? error.message : ''}`.trim());
    }
  }

  async function logout() {
    await signOut();
    void navigate('/');
  }

  return (
    <>
      <div className="profile">
        <Avatar user={user} />
        <dl>
          <dt>{t('account.email')}</dt>
          <dd className="account-email">{user.email}</dd>
        </dl>
      </div>
      <form className="stack name-form" onSubmit={save}>
        <div className="field">
          <label htmlFor="account-name">{t('account.name')}</label>
          <input
            id="account-name"
            type="text"
            autoComplete="name"
            maxLength={100}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setSaved('');
            }}
          />
        </div>
        <button type="submit" className="button">
          {t('account.saveName')}
        </button>
        <p role="status" className="note">
          {saved}
        </p>
      </form>
      <section aria-labelledby="history-title">
        <h2 id="history-title">{t('account.history')}</h2>
        {historyFailed ? (
          <p>{t('account.historyFailed')}</p>
        ) : history ? (
          <HistoryTable entries={history.history} showResults />
        ) : null}
      </section>
      <MyWorkflows uid={user.uid} />
      <button type="button" className="button" onClick={() => void logout()}>
        {t('account.logout')}
      </button>
    </>
  );
}

/** Signed out: a sentence that says so, and the tools this browser used anonymously. */
function SignedOut({ pending }: { pending: boolean }) {
  const t = useT();
  const [local, setLocal] = useState<HistoryEntry[]>([]);
  useEffect(() => {
    if (!pending) setLocal(localHistoryOf('').map((r) => ({ tool: r.tool, date: r.date, download: null })));
  }, [pending]);
  return (
    <div className={pending ? 'pending' : undefined}>
      <p>{t('account.signedOut')}</p>
      {local.length > 0 && (
        <section aria-labelledby="local-history-title">
          <h2 id="local-history-title">{t('account.localHistory')}</h2>
          <HistoryTable entries={local} showResults={false} />
        </section>
      )}
    </div>
  );
}

/** Signed out, the account page says so; signed in it shows the user and their history. */
export default function Account() {
  const t = useT();
  const { status, user } = useAuth();
  return (
    <div className="page narrow account">
      <h1>{t('account.title')}</h1>
      {status === 'signed-in' && user ? <SignedIn user={user} /> : <SignedOut pending={status === 'loading'} />}
    </div>
  );
}
