import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useT } from '../../i18n/use-t.ts';
import { pointOnPage, rectBetween, type Point, type Rect, type Size } from './crop-box.ts';
import { PageThumb } from './PageThumb.tsx';
import type { Drawn, ReadablePdf } from './pdf-pages.ts';
import { useRovingFocus } from './roving-focus.ts';

/**
 * What the page views that draw boxes on a page share (crop-pdf's box, redact-pdf's areas): a strip of
 * thumbnails to choose the page shown, the page drawn large, and a box drawn on it with a mouse or a finger.
 */

/** Width of the large page in CSS pixels at most (styles.css), drawn sharper on a dense screen. */
const shownWidth = 512;

/** The page drawn large, again when another page is shown; the image before is let go once the next is in. */
export function useDrawnPage(pdf: ReadablePdf, page: number): Drawn | undefined {
  const [drawn, setDrawn] = useState<Drawn>();
  const width = useRef(Math.round(shownWidth * Math.min(2, globalThis.devicePixelRatio || 1)));
  useEffect(() => {
    const abort = new AbortController();
    pdf.draw(page, abort.signal, width.current).then(
      (result) => (abort.signal.aborted ? URL.revokeObjectURL(result.url) : setDrawn(result)),
      () => undefined, // a page pdf.js cannot draw: the fields still work
    );
    return () => abort.abort();
  }, [pdf, page]);
  useEffect(() => () => drawn && URL.revokeObjectURL(drawn.url), [drawn]);
  return drawn;
}

/** The thumbnails of a document's pages, the shown one pressed; nothing for a one-page document. */
function PageStrip({ pdf, shown, onShow }: { pdf: ReadablePdf; shown: number; onShow: (page: number) => void }) {
  const t = useT();
  const item = useRovingFocus(pdf.pageCount);
  if (pdf.pageCount <= 1) return null;
  return (
    <ol className="page-strip" aria-label={t('planner.cropPages')}>
      {Array.from({ length: pdf.pageCount }, (_, i) => (
        <li key={i}>
          <button
            type="button"
            {...item(i)}
            aria-pressed={shown === i + 1}
            aria-label={t('planner.showPage', { page: i + 1 })}
            onClick={() => onShow(i + 1)}
          >
            <PageThumb page={i + 1} draw={pdf.draw} />
            <span className="page-number" aria-hidden="true">
              {i + 1}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}

/**
 * A box drawn on the page surface with a mouse, a pen or a finger: the box while it is drawn, and the
 * pointer handlers to spread on the surface; `onDrawn` gets it when let go (a tap, or a slip of a few
 * points, draws nothing).
 */
export function useBoxDrawing(page: Size | undefined, onDrawn: (rect: Rect) => void) {
  const [drag, setDrag] = useState<{ from: Point; to: Point }>();
  const at = (e: PointerEvent<HTMLDivElement>) =>
    pointOnPage({ x: e.clientX, y: e.clientY }, e.currentTarget.getBoundingClientRect(), page!);
  const handlers = {
    onPointerDown(e: PointerEvent<HTMLDivElement>) {
      if (!page || (e.pointerType === 'mouse' && e.button !== 0)) return;
      e.currentTarget.setPointerCapture(e.pointerId);
      e.currentTarget.focus({ preventScroll: true });
      const p = at(e);
      setDrag({ from: p, to: p });
    },
    onPointerMove(e: PointerEvent<HTMLDivElement>) {
      if (drag) setDrag({ ...drag, to: at(e) });
    },
    onPointerUp(e: PointerEvent<HTMLDivElement>) {
      if (!drag) return;
      const r = rectBetween(drag.from, at(e));
      setDrag(undefined);
      if (r.width >= 3 && r.height >= 3) onDrawn(r);
    },
    onPointerCancel: () => setDrag(undefined),
  };
  return { drawing: drag && rectBetween(drag.from, drag.to), handlers };
}

/**
 * The hint, the strip of pages and the page shown large, on which boxes are drawn (`handlers` of
 * useBoxDrawing) and changed with the keyboard (`onKeyDown`); `children` are drawn over the page, in points.
 */
export function BoxSurface({
  pdf,
  shown,
  onShow,
  drawn,
  hint,
  area,
  handlers,
  onKeyDown,
  children,
}: {
  pdf: ReadablePdf;
  shown: number;
  onShow: (page: number) => void;
  drawn: Drawn | undefined;
  hint: string;
  area: string;
  handlers: ReturnType<typeof useBoxDrawing>['handlers'];
  onKeyDown: (e: KeyboardEvent) => void;
  children?: ReactNode;
}) {
  return (
    <>
      <p className="hint" id="surface-hint">
        {hint}
      </p>
      <PageStrip pdf={pdf} shown={shown} onShow={onShow} />
      <div
        className="crop-surface"
        role="application"
        tabIndex={0}
        aria-label={area}
        aria-describedby="surface-hint"
        style={drawn && { aspectRatio: `${drawn.width} / ${drawn.height}` }}
        {...handlers}
        onKeyDown={onKeyDown}
      >
        {drawn && <img src={drawn.url} alt="" draggable={false} />}
        {drawn && children && (
          <svg viewBox={`0 0 ${drawn.width} ${drawn.height}`} preserveAspectRatio="none" aria-hidden="true">
            {children}
          </svg>
        )}
      </div>
    </>
  );
}
