import { useEffect, useState } from 'react';
import { useT } from '../../i18n/use-t.ts';
import type { Drawn } from '../planner/pdf-pages.ts';

/** The largest result drawn: its whole file is fetched for it. */
const previewMaxBytes = 20 * 1024 * 1024;

/**
 * A small image of a PDF result's first page, drawn in the browser by pdf.js (loaded only now, as the
 * page views load it) from the result's own address, when it is not large; with the result's pages, and those given when
 * known, unless the card says them already. Nothing shows for a result pdf.js cannot open (a protected one).
 */
export function ResultPreview({ href, pagesIn, showPages }: { href: string; pagesIn?: number; showPages: boolean }) {
  const t = useT();
  const [shown, setShown] = useState<{ drawn: Drawn; pages: number }>();
  const [none, setNone] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    let url: string | undefined;
    let close = () => {};
    void (async () => {
      const [{ openPdf }, res] = await Promise.all([
        import('../planner/pdf-pages.ts'),
        fetch(href, { signal: abort.signal }),
      ]);
      // A large result is not fetched a second time for its picture.
      if (!res.ok || Number(res.headers.get('content-length') ?? Infinity) > previewMaxBytes) {
        setNone(true);
        return abort.abort();
      }
      const pdf = await openPdf(new File([await res.blob()], 'result.pdf'), '');
      if (!pdf.ok) return setNone(true);
      close = pdf.close;
      const drawn = await pdf.draw(1, abort.signal);
      url = drawn.url;
      if (abort.signal.aborted) return URL.revokeObjectURL(drawn.url);
      setShown({ drawn, pages: pdf.pageCount });
    })().catch(() => !abort.signal.aborted && setNone(true)); // a result pdf.js cannot draw: no preview
    return () => {
      abort.abort();
      close();
      if (url) URL.revokeObjectURL(url);
      setShown(undefined);
      setNone(false);
    };
  }, [href]);

  if (none) return null;
  // Its room is kept while it is drawn, so that what was scrolled into view stays there.
  if (!shown)
    return (
      <figure className="result-preview pending" aria-hidden="true">
        {showPages && <figcaption>&nbsp;</figcaption>}
      </figure>
    );
  const pages =
    pagesIn !== undefined
      ? t('batch.pagesInOut', { before: pagesIn, after: shown.pages })
      : t('batch.pagesOut', { after: shown.pages });
  return (
    <figure className="result-preview">
      <img src={shown.drawn.url} alt={t('batch.preview')} width={shown.drawn.width} height={shown.drawn.height} />
      {showPages && <figcaption>{pages}</figcaption>}
    </figure>
  );
}
