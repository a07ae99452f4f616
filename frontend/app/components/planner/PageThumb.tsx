import { useEffect, useRef, useState } from 'react';

/**
 * One page's image, drawn only while it is near the screen and let go when it scrolls far away, so that
 * a document of hundreds of pages holds a few dozen small images at most.
 */
export function PageThumb({
  page,
  turn,
  draw,
}: {
  page: number;
  turn: number;
  draw: (page: number, signal: AbortSignal) => Promise<string>;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const [src, setSrc] = useState<string>();

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
      (drawn) => {
        url = drawn;
        if (abort.signal.aborted) URL.revokeObjectURL(drawn);
        else setSrc(drawn);
      },
      () => undefined, // cancelled, or a page pdf.js cannot draw: the number still shows
    );
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
      setSrc(undefined);
    };
  }, [near, page, draw]);

  return (
    <div className="page-thumb" ref={box} aria-hidden="true">
      {src && <img src={src} alt="" draggable={false} style={{ transform: `rotate(${turn}deg)` }} />}
    </div>
  );
}
