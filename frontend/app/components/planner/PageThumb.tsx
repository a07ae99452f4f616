import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Draw, Drawn } from './pdf-pages.ts';

/**
 * One page's image, drawn only while it is near the screen and let go when it scrolls far away, so that
 * a document of hundreds of pages holds a few dozen small images at most. `overlay` draws over the page,
 * in an SVG whose units are the page's points as shown.
 */
export function PageThumb({
  page,
  turn = 0,
  draw,
  overlay,
}: {
  page: number;
  turn?: number;
  draw: Draw;
  overlay?: (size: { width: number; height: number }) => ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const [drawn, setDrawn] = useState<Drawn>();

  useEffect(() => {
    const observer = new IntersectionObserver(([entry]) => setNear(entry!.isIntersecting), { rootMargin: '600px 0px' });
    observer.observe(box.current!);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!near) return;
    const abort = new AbortController();
    let url: string | undefined;
    draw(page, abort.signal).then(
      (result) => {
        url = result.url;
        if (abort.signal.aborted) URL.revokeObjectURL(result.url);
        else setDrawn(result);
      },
      () => undefined, // cancelled, or a page pdf.js cannot draw: the number still shows
    );
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
      setDrawn(undefined);
    };
  }, [near, page, draw]);

  return (
    <div className="page-thumb" ref={box} aria-hidden="true">
      {drawn && (
        <PageSheet drawn={drawn} turn={turn}>
          {overlay?.(drawn)}
        </PageSheet>
      )}
    </div>
  );
}

/** A drawn page at the largest size its box allows, with whatever is drawn over it in page points. */
export function PageSheet({ drawn, turn = 0, children }: { drawn: Drawn; turn?: number; children?: ReactNode }) {
  const { width, height } = drawn;
  return (
    <div
      className={`page-sheet ${width >= height ? 'wide' : 'tall'}`}
      style={{ aspectRatio: `${width} / ${height}`, transform: turn ? `rotate(${turn}deg)` : undefined }}
    >
      <img src={drawn.url} alt="" draggable={false} />
      {children && (
        <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true">
          {children}
        </svg>
      )}
    </div>
  );
}
