import { useEffect, useRef } from 'react';
import { ProgressBar } from '../ProgressBar.tsx';
import { ResultLink } from '../ResultLink.tsx';
import type { Result } from './use-upload-run.ts';

/**
 * Where a run shows how it goes: progress, the status line read out to screen readers (an alert when it
 * is an error), the result. A result or an error is scrolled into view, clear of the sticky header and
 * the fixed banner (their room is the scroll margin in the stylesheet).
 */
export function RunStatus({
  progress,
  status,
  failed = false,
  result,
}: {
  progress: number;
  status: string;
  failed?: boolean;
  result?: Result;
}) {
  const shown = useRef<HTMLDivElement>(null);
  const outcome = result ? result.download : failed ? status : '';
  useEffect(() => {
    if (outcome) shown.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [outcome]);
  return (
    <div className="run-status" ref={shown}>
      <ProgressBar value={progress} />
      {failed ? (
        // A new element per message, so that each error is announced as it appears.
        <p
          key={status}
          role="alert"
          className={`upload-status error${/^\p{Extended_Pictographic}/u.test(status) ? ' own-icon' : ''}`}
        >
          {status}
        </p>
      ) : (
        <p role="status" aria-live="polite" className="upload-status">
          {status}
        </p>
      )}
      {result && <ResultLink result={result} />}
    </div>
  );
}
