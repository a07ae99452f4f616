import { readSettings, ToolError } from '@quire/base';
import { extractSettings } from './settings.ts';

/** Pages the service lays out at once, and the documents waiting, in the order they came. */
export class PageBudget {
  private used = 0;
  private readonly waiting: { share: number; go: () => void }[] = [];

  constructor(readonly pages: number) {}

  /**
   * Waits until `pages` (at most the whole budget) are free, or the job ends; resolves to the call that
   * gives them back, which may be made more than once.
   */
  async take(pages: number, signal: AbortSignal): Promise<() => void> {
    const share = Math.max(1, Math.min(pages, this.pages));
    if (this.waiting.length || this.used + share > this.pages) {
      await new Promise<void>((resolve, reject) => {
        const entry = { share, go: resolve };
        const abort = () => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(signal.reason instanceof Error ? signal.reason : new ToolError('timeout'));
          // Documents it held back may fit now.
          this.admit();
        };
        if (signal.aborted) return abort();
        entry.go = () => {
          signal.removeEventListener('abort', abort);
          resolve();
        };
        signal.addEventListener('abort', abort, { once: true });
        this.waiting.push(entry);
      });
    } else this.used += share;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.used -= share;
      this.admit();
    };
  }

  /** The documents that now fit start, first come first: a long one is not passed by shorter ones. */
  private admit(): void {
    while (this.waiting.length && this.used + this.waiting[0]!.share <= this.pages) {
      const next = this.waiting.shift()!;
      this.used += next.share;
      next.go();
    }
  }
}

export const pageBudget = new PageBudget(readSettings(extractSettings).EXTRACT_PAGES_AT_ONCE);
