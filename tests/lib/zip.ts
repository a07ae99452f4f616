import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A zip's entries unpacked into a folder of their own (by Python's zipfile, not our own reader). */
export function unzip(path: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'quire-zip-'));
  execFileSync(
    'python3',
    ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', path, dir],
    { timeout: 60_000, killSignal: 'SIGKILL' },
  );
  return dir;
}
