import { useEffect, useState } from 'react';
import { useT } from '../i18n/use-t.ts';

const key = 'dark_mode';

function apply(dark: boolean) {
  document.documentElement.classList.toggle('dark', dark);
}

/** The dark-mode switch; the choice is kept in local storage as the text `true` or `false`. */
export function DarkModeSwitch() {
  const t = useT();
  const [dark, setDark] = useState(false);

  useEffect(() => {
    try {
      setDark(localStorage.getItem(key) === 'true');
    } catch {
      // Storage refused: start light.
    }
  }, []);

  function toggle() {
    const next = !dark;
    setDark(next);
    apply(next);
    try {
      localStorage.setItem(key, String(next));
    } catch {
      // The choice then lasts for this page only.
    }
  }

  return (
    <button type="button" className="icon-button" aria-pressed={dark} onClick={toggle} title={t('nav.darkMode')}>
      <span aria-hidden="true">{dark ? '☀️' : '🌙'}</span>
      <span className="visually-hidden">{t('nav.darkMode')}</span>
    </button>
  );
}
