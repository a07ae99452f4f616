import { ProgressBar } from '../ProgressBar.tsx';
import { ResultLink } from '../ResultLink.tsx';
import type { Result } from './use-upload-run.ts';

/** Where a run shows how it goes: progress, the status line read out to screen readers, the result. */
export function RunStatus({ progress, status, result }: { progress: number; status: string; result?: Result }) {
  return (
    <>
      <ProgressBar value={progress} />
      <p role="status" aria-live="polite" className="upload-status">
        {status}
      </p>
      {result && <ResultLink result={result} />}
    </>
  );
}
