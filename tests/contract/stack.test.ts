import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../scripts/stack.ts';

const baseUrl = inject('baseUrl');
const uploadLimitMb = inject('uploadLimitMb');

const tooLargeBody = {
  error: { code: 'file_too_large', message: 'The file is too large. Please choose a smaller file.' },
};

function securityHeaders(res: Response): void {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  // Scripts from the site itself, and inline only the ones the build listed by their hashes.
  const hashes = readFileSync(`${repoRoot}/frontend/dist/.csp-script-hashes`, 'utf8').trim();
  expect(hashes).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
  expect(csp).toContain(`script-src 'self' ${hashes};`);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
}

describe('the site through nginx', () => {
  it('serves the home page with the security headers, never cached without a check', async () => {
    const res = await fetch(`${baseUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    securityHeaders(res);
    const html = await res.text();
    expect(html).toMatch(/<title>[^<]*Quire[^<]*<\/title>/);
    // Every inline script that runs is one the CSP allows by its hash; the rest come from files.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attributes]) => !/type="application\/ld\+json"/.test(attributes!),
    );
    expect(inline.length).toBeGreaterThan(0);
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const [, , body] of inline) {
      expect(csp).toContain(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
    }
  });

  it('answers an unknown address with a real 404 and the site 404 page', async () => {
    const res = await fetch(`${baseUrl}/no-such-page`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    securityHeaders(res);
    expect(await res.text()).toContain('<html');
  });

  it('passes the request id through to the gateway and back', async () => {
    const res = await fetch(`${baseUrl}/api/v1/tools`, { headers: { 'X-Request-Id': 'contract-stack-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('contract-stack-1');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    securityHeaders(res);
  });
});

describe('the upload limit at nginx', () => {
  const oversize = () => new Uint8Array(uploadLimitMb * 1024 * 1024 + 512 * 1024);

  it('answers an oversize tool call with the JSON 413 of the contract', async () => {
    const form = new FormData();
    form.append('file', new Blob([oversize()], { type: 'application/pdf' }), 'big.pdf');
    const res = await fetch(`${baseUrl}/api.php?tool=pdf-compress`, { method: 'POST', body: form });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.json()).toEqual(tooLargeBody);
  });

  it('does the same for a body sent without a length (chunked)', async () => {
    const bytes = oversize();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 256 * 1024) controller.enqueue(bytes.subarray(at, at + 256 * 1024));
        controller.close();
      },
    });
    const res = await fetch(`${baseUrl}/api/v1/tools/pdf-compress`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'Content-Type': 'application/octet-stream' },
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLargeBody);
  });
});
