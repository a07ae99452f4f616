import type { ReactNode } from 'react';
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router';
import { Footer } from './components/Footer.tsx';
import { Header } from './components/Header.tsx';
import { NotFound } from './components/NotFound.tsx';
import { TagManager } from './components/TagManager.tsx';
import { useVisitorLanguage } from './i18n/use-language.ts';
import { useT } from './i18n/use-t.ts';
import styles from './styles.css?inline';
import themeScript from './theme.js?raw';

/**
 * Written into the prerendered pages only: the browser has both long before hydration, and React never
 * rewrites an element's inner HTML while hydrating, so the pages' script does not carry them again.
 */
const inline = import.meta.env.SSR ? { themeScript, styles } : { themeScript: '', styles: '' };

export function Layout({ children }: { children: ReactNode }) {
  const t = useT();
  return (
    // The theme script and the visitor's language change these attributes before and after hydration.
    <html lang="en" dir="ltr" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d4ed8" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Inline (allowed by its hash) so that it runs before the first paint: a dark page never flashes light. */}
        <script id="theme" dangerouslySetInnerHTML={{ __html: inline.themeScript }} />
        <Meta />
        <Links />
        {/* The one small stylesheet, inline: the first paint waits for no request. */}
        <style dangerouslySetInnerHTML={{ __html: inline.styles }} />
      </head>
      <body>
        <a className="skip" href="#main">
          {t('site.skip')}
        </a>
        <Header />
        <main id="main">{children}</main>
        <Footer />
        <ScrollRestoration />
        <Scripts />
        <TagManager />
      </body>
    </html>
  );
}

export default function App() {
  useVisitorLanguage();
  return <Outlet />;
}

export function ErrorBoundary({ error }: { error: unknown }) {
  const t = useT();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <section className="page narrow">
      <h1>{t('errors.internal')}</h1>
    </section>
  );
}
