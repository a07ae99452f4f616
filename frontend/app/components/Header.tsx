import { headerMenus, searchTools } from '@quire/catalog/site';
import { findTool } from '../lib/tools.ts';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toolKey, useT } from '../i18n/use-t.ts';
import { authPages, shortName, startAuth, useAuth } from '../lib/auth.ts';
import { DarkModeSwitch } from './DarkModeSwitch.tsx';
import { LanguagePicker } from './LanguagePicker.tsx';

/** The first tool of the search list whose id contains the typed text. */
export function searchTool(text: string): string | undefined {
  const query = text.trim().toLowerCase();
  return query ? searchTools.find((id) => id.includes(query)) : undefined;
}

export function Header() {
  const t = useT();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const { pathname } = useLocation();
  const { status, user } = useAuth();
  // After hydration: the sign-in pages always need the auth state, other pages only for a returning user.
  useEffect(() => startAuth(authPages.includes(pathname.replace(/\/+$/, ''))), [pathname]);

  async function logOut() {
    // The provider's module loads only when needed; a signed-in visitor has it already.
    await (await import('../lib/sign-in.ts')).signOut();
    if (authPages.includes(pathname.replace(/\/+$/, ''))) void navigate('/');
  }

  function search(e: FormEvent) {
    e.preventDefault();
    const id = searchTool(query);
    if (id) void navigate(`/tools/${id}`);
    else window.alert(t('nav.searchNotFound'));
  }

  return (
    <header className="site-header">
      <div className="bar">
        <Link to="/" className="brand" aria-label="Quire">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>Quire</span>
        </Link>
        <nav aria-label={t('nav.tools')} className="menus">
          <ul>
            {headerMenus.map((menu) => (
              <li key={menu.group} className="menu">
                <button type="button" className="menu-button" aria-haspopup="true">
                  {t(`nav.${menu.group.toLowerCase() as 'convert' | 'extract' | 'edit'}`)}
                </button>
                <ul className="dropdown">
                  {menu.tools.map((id) => (
                    <li key={id}>
                      <Link to={`/tools/${id}`}>
                        <span aria-hidden="true">{findTool(id)?.icon}</span> {t(toolKey(id, 'name'))}
                      </Link>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
        <form role="search" className="search" onSubmit={search}>
          <label htmlFor="tool-search" className="visually-hidden">
            {t('nav.searchLabel')}
          </label>
          <input
            id="tool-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('nav.searchPlaceholder')}
            autoComplete="off"
          />
          <button type="submit">{t('nav.searchButton')}</button>
        </form>
        <div className="header-actions">
          <DarkModeSwitch />
          <LanguagePicker />
          {/* Until the first auth state is known this part keeps its place, unseen: no signed-out flash. */}
          <span className={status === 'loading' ? 'auth-links pending' : 'auth-links'}>
            {status === 'signed-in' && user ? (
              <>
                <Link to="/account" className="account-link">
                  {shortName(user)}
                </Link>
                <button type="button" className="link-button logout" onClick={() => void logOut()}>
                  {t('nav.logout')}
                </button>
              </>
            ) : (
              <>
                <Link to="/login">{t('nav.login')}</Link>
                <Link to="/signup" className="button small">
                  {t('nav.signup')}
                </Link>
              </>
            )}
          </span>
        </div>
      </div>
    </header>
  );
}
