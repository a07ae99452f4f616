import { menusOf } from '@quire/catalog/site';
import { tools } from '../lib/tools.ts';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toolKey, useT } from '../i18n/use-t.ts';
import { authPages, shortName, startAuth, useAuth } from '../lib/auth.ts';
import { DarkModeSwitch } from './DarkModeSwitch.tsx';
import { LanguagePicker } from './LanguagePicker.tsx';
import { ToolSearch } from './ToolSearch.tsx';

/** Every tool of the catalog, in the spec's menus and the categories' own. */
const menus = menusOf(tools);

export function Header() {
  const t = useT();
  // On a phone the search sits behind a button, so that the sticky header stays one short row.
  const [searching, setSearching] = useState(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { status, user } = useAuth();
  // After hydration: the sign-in pages always need the auth state, other pages only for a returning user.
  useEffect(() => startAuth(authPages.includes(pathname.replace(/\/+$/, ''))), [pathname]);

  async function logOut() {
    // The provider's module loads only when needed; a signed-in visitor has it already.
    await (await import('../lib/sign-in.ts')).signOut();
    if (authPages.includes(pathname.replace(/\/+$/, ''))) void navigate('/');
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
            {menus.map((menu) => (
              <li key={menu.group} className="menu">
                <button type="button" className="menu-button" aria-haspopup="true">
                  {t(`nav.${menu.group.toLowerCase() as Lowercase<typeof menu.group>}`)}
                </button>
                <ul className="dropdown">
                  {menu.tools.map(({ id, icon }) => (
                    <li key={id}>
                      <Link to={`/tools/${id}`}>
                        <span aria-hidden="true">{icon}</span> {t(toolKey(id, 'name'))}
                      </Link>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          className="search-toggle"
          aria-expanded={searching}
          aria-controls="site-search"
          onClick={() => {
            setSearching(!searching);
            // The field appears with this render; focus it once it is there.
            if (!searching) requestAnimationFrame(() => document.getElementById('tool-search')?.focus());
          }}
        >
          <span aria-hidden="true">🔍</span>
          <span className="visually-hidden">{t('nav.searchLabel')}</span>
        </button>
        <ToolSearch open={searching} onDone={() => setSearching(false)} />
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
