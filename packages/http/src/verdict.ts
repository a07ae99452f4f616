import type { IncomingMessage } from 'node:http';
import type { ToolError } from '@quire/base';

/**
 * A result sent while it is still being checked. A caller that takes trailers (`TE: trailers`, as the
 * gateway does) gets a result's bytes as soon as the tool has made them, while the check runs, and the
 * check's verdict after them in this trailer: the checks passed and how long they took, or the error
 * that means the result must not be offered. The bytes are kept only once the verdict says so.
 */
export const verdictTrailer = 'X-Quire-Verdict';

/** A check that passed: what it checked, and its part of the call's time (ms, as Server-Timing says it). */
export interface Passed {
  checks: string[];
  timing: Record<string, number>;
}

/** Whether a request's caller takes trailers, and so a result sent ahead of its verdict. */
export function takesTrailers(req: IncomingMessage): boolean {
  return /(^|,)\s*trailers\s*(,|;|$)/i.test(String(req.headers.te ?? ''));
}

/** A verdict as the trailer carries it: JSON, `{ checks, timing }` or the contract's error body. */
export function verdictText(verdict: Passed | ToolError): string {
  return JSON.stringify('checks' in verdict ? verdict : verdict.toBody());
}
