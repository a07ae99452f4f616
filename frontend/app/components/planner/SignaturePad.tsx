import { useRef, type PointerEvent } from 'react';
import { useT } from '../../i18n/use-t.ts';
import { canvasPng } from './signature-source.ts';

/**
 * A pad to draw a signature on with a mouse, a pen or a finger; each stroke ended sends the drawing,
 * as a transparent PNG, to `onSignature`. Clear starts again.
 */
export function SignaturePad({ onSignature }: { onSignature: (file: File | undefined) => void }) {
  const t = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number }>(undefined);

  const at = (e: PointerEvent<HTMLCanvasElement>) => {
    const c = e.currentTarget;
    const r = c.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * c.width, y: ((e.clientY - r.top) / r.height) * c.height };
  };
  function down(e: PointerEvent<HTMLCanvasElement>) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    last.current = at(e);
    stroke(e.currentTarget, last.current, { x: last.current.x + 0.1, y: last.current.y });
  }
  function move(e: PointerEvent<HTMLCanvasElement>) {
    if (!last.current) return;
    const p = at(e);
    stroke(e.currentTarget, last.current, p);
    last.current = p;
  }
  async function up(e: PointerEvent<HTMLCanvasElement>) {
    if (!last.current) return;
    last.current = undefined;
    onSignature(await canvasPng(e.currentTarget, 'signature.png'));
  }
  function clear() {
    const c = canvas.current!;
    c.getContext('2d')!.clearRect(0, 0, c.width, c.height);
    onSignature(undefined);
  }

  return (
    <div className="signature-pad">
      <canvas
        ref={canvas}
        width={600}
        height={200}
        role="img"
        aria-label={t('planner.signPad')}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <button type="button" className="button" onClick={clear}>
        {t('planner.clear')}
      </button>
    </div>
  );
}

function stroke(c: HTMLCanvasElement, from: { x: number; y: number }, to: { x: number; y: number }) {
  const g = c.getContext('2d')!;
  g.strokeStyle = '#102040';
  g.lineWidth = 5;
  g.lineCap = 'round';
  g.lineJoin = 'round';
  g.beginPath();
  g.moveTo(from.x, from.y);
  g.lineTo(to.x, to.y);
  g.stroke();
}
