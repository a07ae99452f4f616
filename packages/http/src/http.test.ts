import { describe, expect, it } from 'vitest';
import { ToolError } from '@quire/base';
import { JobQueue } from './queue.ts';
import { isPublicAddress } from './url.ts';

describe('JobQueue', () => {
  it('runs at most N at once, lets M wait, and answers busy beyond with Retry-After', async () => {
    const q = new JobQueue(1, 1);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let running = 0;
    let peak = 0;
    const job = async () => {
      running++;
      peak = Math.max(peak, running);
      await gate;
      running--;
      return 'done';
    };
    const a = q.run(job);
    const b = q.run(job);
    const c = q.run(job).catch((e: ToolError) => e);
    const busy = await c;
    expect(busy).toBeInstanceOf(ToolError);
    expect((busy as ToolError).code).toBe('busy');
    expect((busy as ToolError).headers['Retry-After']).toBeDefined();
    release();
    expect(await Promise.all([a, b])).toEqual(['done', 'done']);
    expect(peak).toBe(1);
    expect(q.size).toBe(0);
    expect(q.active).toBe(0);
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fc00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::7f00:1', false],
    ['::808:808', false],
    ['::127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::1', false],
    ['not-an-ip', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});
