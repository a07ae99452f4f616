import { describe, expect, it } from 'vitest';
import { pdf, useEditor, check, rotations } from '../../../test/helpers.ts';

const { call } = useEditor();

describe('rotate-pdf', () => {
  it('turns every page clockwise from its current, even inherited, rotation', async () => {
    const r = await call('rotate-pdf', [pdf('qpdf-inherited-rotate.pdf')], { angle: '90' });
    expect(rotations(pdf('qpdf-inherited-rotate.pdf'))).toEqual([90]);
    expect(rotations(r.file)).toEqual([180]);
    expect(check(r.file)).toBe(0);
  });

  it('turns only the pages named', async () => {
    const source = pdf('qpdf-rotated-20-pages.pdf');
    const r = await call('rotate-pdf', [source], { angle: '270', pages: '1-3,20' });
    const before = rotations(source);
    const after = rotations(r.file);
    expect(after).toHaveLength(20);
    after.forEach((rot, i) => expect(rot).toBe([0, 1, 2, 19].includes(i) ? (before[i]! + 270) % 360 : before[i]));
    expect(r.props).toMatchObject({ pages: 20, rotated: 4 });
  });

  it('refuses an angle that is not a quarter turn, naming the field', async () => {
    const r = await call('rotate-pdf', [pdf('qpdf-11-pages.pdf')], { angle: '45' });
    expect(r.error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/"angle"/) });
  });
});
