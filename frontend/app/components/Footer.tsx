import { footerColumns } from '@quire/catalog/site';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { toolKey, useT } from '../i18n/use-t.ts';
import { useSiteSettings } from '../lib/settings.ts';
import { Newsletter } from './Newsletter.tsx';

const companyKeys = {
  '/blog': 'footer.blog',
  '/faq': 'footer.faq',
  '/contact': 'footer.contact',
  '/privacy-policy': 'footer.privacy',
  '/terms': 'footer.terms',
  '/login': 'footer.login',
  '/signup': 'footer.signup',
  '/account': 'footer.dashboard',
  '/workflow-builder': 'footer.workflowBuilder',
} as const;

/** Whether an upload widget of the page is on screen: the fixed banner then keeps out of its way. */
function useUploadInView(): boolean {
  const { pathname } = useLocation();
  const [inView, setInView] = useState(false);
  useEffect(() => {
    setInView(false);
    const widgets = document.querySelectorAll('main .widget');
    if (widgets.length === 0 || typeof IntersectionObserver === 'undefined') return undefined;
    const seen = new Set<Element>();
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) seen.add(entry.target);
        else seen.delete(entry.target);
      }
      setInView(seen.size > 0);
    });
    widgets.forEach((widget) => observer.observe(widget));
    return () => observer.disconnect();
  }, [pathname]);
  return inView;
}

export function Footer() {
  const t = useT();
  const uploadInView = useUploadInView();
  const minutes = useSiteSettings().resultMinutes;
  return (
    <footer className="site-footer">
      <div className="footer-top">
        <Newsletter />
        <ul className="badges" aria-label={t('footer.ratingLabel')}>
          <li>🔒 {t('footer.badgeNoAccount')}</li>
          <li>🗑️ {t('footer.badgeDeleted', { minutes })}</li>
          <li>✅ {t('footer.badgeChecked')}</li>
          <li>
            👥 <strong>{t('footer.users')}</strong>
          </li>
          <li>
            ⭐ <strong>{t('footer.rating')}</strong>
          </li>
        </ul>
      </div>
      <nav className="footer-columns" aria-label="Footer">
        <div>
          <h2>{t('footer.tools')}</h2>
          <ul>
            {footerColumns.tools.map((id) => (
              <li key={id}>
                <Link to={`/tools/${id}`}>{t(toolKey(id, 'name'))}</Link>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2>{t('footer.company')}</h2>
          <ul>
            {footerColumns.company.map(({ path }) => (
              <li key={path}>
                <Link to={path}>{t(companyKeys[path])}</Link>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2>{t('footer.account')}</h2>
          <ul>
            {footerColumns.account.map(({ path }) => (
              <li key={path}>
                <Link to={path}>{t(companyKeys[path])}</Link>
              </li>
            ))}
          </ul>
        </div>
      </nav>
      <p className="copyright">{t('footer.copyright', { year: new Date().getFullYear() })}</p>
      <div className={uploadInView ? 'banner away' : 'banner'} role="complementary">
        <span>{t('footer.bannerText')}</span>
        <Link to="/tools/word-to-pdf" className="button small">
          {t('footer.bannerCta')}
        </Link>
      </div>
    </footer>
  );
}
