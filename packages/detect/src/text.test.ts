import { describe, expect, it } from 'vitest';
import { isText } from './text.ts';

describe('isText', () => {
  it('takes UTF-8 text, and a character cut at the end of a partial read', () => {
    expect(isText(Buffer.from('# Título\n\n| a | b |\r\n\tcode\f'))).toBe(true);
    const cut = Buffer.from('ok é').subarray(0, -1);
    expect(isText(cut, false)).toBe(true);
    expect(isText(cut)).toBe(false);
  });

  it('refuses binary: NUL and control bytes, bytes that are not UTF-8, an empty file', () => {
    expect(isText(Buffer.from([0x23, 0x20, 0x00]))).toBe(false);
    expect(isText(Buffer.from('a\x1bb'))).toBe(false);
    expect(isText(Buffer.from([0x23, 0xff, 0xfe]))).toBe(false);
    expect(isText(Buffer.alloc(0))).toBe(false);
  });
});
