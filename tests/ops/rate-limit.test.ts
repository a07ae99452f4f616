/**
 * The per-client limit on tool calls, as nginx enforces it in front of every gateway: the calls over
 * the limit get the contract's JSON with a Retry-After and never reach a gateway; other requests pass.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles } from '../lib/corpus.ts';
import { post, type CallResult } from '../lib/http.ts';
import { startScratchStack, type ScratchStack } from '../lib/stack.ts';

const small = corpusFiles().find((f) => f.file === 'pdf/qpdf-11-pages.pdf')!.path;
const limit = 3;

describe('the rate limit on tool calls', () => {
  let stack: ScratchStack;
  const answers: CallResult[] = [];
  let usage: Response;

  beforeAll(async () => {
    stack = await startScratchStack('rate', {
      portOffset: 11_000,
      services: ['pdf-editor'],
      authEmulator: false,
      env: { RATE_LIMIT_PER_MINUTE: String(limit) },
    });
    // All at once, so that they reach nginx together however long each job takes: one after another, jobs
    // slowed by a busy machine could outlast the 60/limit seconds after which nginx lets one more call in.
    answers.push(
      ...(await Promise.all(
        Array.from({ length: limit + 2 }, () => post(`${stack.url}/api.php?tool=rotate-pdf`, [small])),
      )),
    );
    usage = await fetch(`${stack.url}/api/v1/usage`);
    await stack.stop();
  });

  afterAll(async () => {
    await stack?.remove();
  });

  it('answers the calls over the limit with rate_limited and when to come back', () => {
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(limit).fill(200), 429, 429]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body.error?.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
  });

  it('refuses them in nginx, before any gateway, and lets other requests through', async () => {
    expect(usage.status).toBe(200);
    const log = (await readFile(join(stack.logDir, 'nginx-access.log'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { status: number; upstream: string; uri: string });
    const refused = log.filter((l) => l.status === 429);
    expect(refused).toHaveLength(2);
    for (const l of refused) expect(l.upstream).toBe('');
  });
});
