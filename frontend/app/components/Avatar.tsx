import { useState } from 'react';
import { useT } from '../i18n/use-t.ts';
import { shortName, type User } from '../lib/auth.ts';

/** Up to two initials for the generated avatar: from the name, else from the e-mail. */
export function initialsOf(user: Pick<User, 'email' | 'displayName'>): string {
  const words = (user.displayName?.trim() || shortName(user)).split(/[\s._-]+/u).filter(Boolean);
  const letters = words.map((w) => [...w].find((c) => /[\p{L}\p{N}]/u.test(c)) ?? '').filter(Boolean);
  return (letters.length > 1 ? letters[0]! + letters[letters.length - 1]! : (letters[0] ?? '?')).toUpperCase();
}

/** A generated avatar: the initials on a colour picked from the e-mail, as an SVG data URL. */
export function initialsAvatar(user: Pick<User, 'email' | 'displayName'>): string {
  let hash = 0;
  for (const c of user.email) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  const text = initialsOf(user).replace(/[&<>'"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg =
    `<svg xmlns='http://www.w3.org/2000/svg' width='96' height='96' viewBox='0 0 96 96'>` +
    `<rect width='96' height='96' rx='48' fill='hsl(${hue} 55% 38%)'/>` +
    `<text x='48' y='48' dy='0.35em' text-anchor='middle' font-family='system-ui, sans-serif' font-size='38' fill='#fff'>${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The photo, or the initials when there is none or it does not load. */
export function Avatar({ user }: { user: User }) {
  const t = useT();
  const [broken, setBroken] = useState(false);
  const src = user.photoURL && !broken ? user.photoURL : initialsAvatar(user);
  return (
    <img
      className="avatar"
      src={src}
      alt={t('account.avatar')}
      width="72"
      height="72"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
}
