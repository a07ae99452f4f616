import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t.ts';
import { marksOf, toggledRanges } from './page-marks.ts';
import { PageThumb } from './PageThumb.tsx';
import type { ReadablePdf } from './pdf-pages.ts';
import { useRovingFocus } from './roving-focus.ts';

/**
 * Every page of the PDF as a thumbnail to mark or unmark (click, tap, Space or Enter), for a `pages` field
 * of page ranges: the marks are written as compact ranges, and ranges typed in the field are marked.
 */
export function PagePicker({
  pdf,
  pages,
  onPages,
  purpose,
  said,
  overlay,
}: {
  pdf: ReadablePdf;
  pages: string;
  onPages: (pages: string) => void;
  /** What a mark means: a page to delete, or a page to number. */
  purpose: 'remove' | 'number';
  /** What a page's name adds: what is drawn over it, said. */
  said?: (page: number) => string | undefined;
  /** What to draw over a page, in its points. */
  overlay?: (page: number) => ((size: { width: number; height: number }) => ReactNode) | undefined;
}) {
  const t = useT();
  const count = pdf.pageCount;
  const item = useRovingFocus(count);
  const marks = marksOf(pages, count);
  const hint = `page-picker-hint-${purpose}`;
  return (
    <div className={`planner picker-${purpose}`}>
      <p className="hint" id={hint}>
        {t(`planner.${purpose}Hint`)}
      </p>
      {!marks && <p className="note">{t('planner.rangesNotShown')}</p>}
      <div className="planner-actions">
        <button type="button" className="button" onClick={() => onPages('')} disabled={!pages.trim()}>
          {t('planner.clear')}
        </button>
      </div>
      <ol className="page-grid" aria-label={t(`planner.${purpose}Title`)} aria-describedby={hint}>
        {Array.from({ length: count }, (_, i) => {
          const page = i + 1;
          const marked = marks?.has(page) ?? false;
          return (
            <li key={page}>
              <button
                type="button"
                {...item(i)}
                className={marked ? 'marked' : undefined}
                aria-pressed={marked}
                aria-label={[t('planner.pageOf', { page, count }), said?.(page)].filter(Boolean).join(', ')}
                onClick={() => onPages(toggledRanges(marks ?? new Set(), page))}
              >
                <PageThumb page={page} draw={pdf.draw} overlay={overlay?.(page)} />
                {/* Drawn by the style sheet, so that the page's name holds all the text it shows. */}
                <span className="page-number" data-page={page} aria-hidden="true" />
                {purpose === 'remove' && marked && (
                  <span className="page-mark" aria-hidden="true">
                    ✕
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
