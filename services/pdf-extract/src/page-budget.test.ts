import { describe, expect, it } from 'vitest';
import { ToolError } from '@quire/base';
import { PageBudget } from './page-budget.ts';

const open = () => new AbortController().signal;
/** Whether a promise has settled by the time pending callbacks have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('PageBudget', () => {
  it('lets documents in while their pages fit, and the next one when pages are given back', async () => {
    const budget = new PageBudget(500);
    const first = await budget.take(300, open());
    await budget.take(150, open());
    const third = budget.take(100, open());
    expect(await settled(third)).toBe(false);
    first();
    first(); // given back once only: a second call frees nothing more
    expect(await settled(third)).toBe(true);
    const fourth = budget.take(300, open());
    expect(await settled(fourth)).toBe(false);
  });

  it('runs a document longer than the budget alone, and lets nothing pass a document waiting', async () => {
    const budget = new PageBudget(500);
    const small = await budget.take(10, open());
    const book = budget.take(702, open());
    const later = budget.take(10, open());
    expect(await settled(book)).toBe(false);
    expect(await settled(later)).toBe(false);
    small();
    const release = await book;
    expect(await settled(later)).toBe(false);
    release();
    expect(await settled(later)).toBe(true);
  });

  it('drops a waiting document whose job ends, with the job’s reason, and lets in those it held back', async () => {
    const budget = new PageBudget(100);
    await budget.take(60, open());
    const job = new AbortController();
    const gone = budget.take(100, job.signal);
    const next = budget.take(40, open());
    expect(await settled(next)).toBe(false);
    job.abort(new ToolError('timeout'));
    await expect(gone).rejects.toMatchObject({ code: 'timeout' });
    expect(await settled(next)).toBe(true);
  });
});
