import { exec, timeLeft, type Job } from '@quire/base';

/**
 * Ghostscript (always with -dSAFER), within the job's time or `share` of what is left of it. Any error
 * it reports counts as a failure: it can exit 0 having processed no page, or having written a page
 * with nothing on it. Resolves to what it said.
 */
export async function ghostscript(job: Job, args: string[], share = 1): Promise<string> {
  const safe = args.includes('-dSAFER') ? args : ['-dSAFER', ...args];
  const { code, stdout, stderr } = await exec('gs', safe, {
    timeoutMs: Math.max(1000, Math.floor(timeLeft(job.deadline) * share)),
    signal: job.signal,
  });
  const said = `${stdout}\n${stderr}`;
  if (code !== 0 || /\*\*\*\* Error|No pages will be processed/i.test(said)) {
    throw new Error(`gs exit ${code}: ${said.trim().slice(0, 2000)}`);
  }
  return said;
}
