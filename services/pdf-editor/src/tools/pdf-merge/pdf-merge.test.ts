import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus, pdf, useEditor, pages, check, text, encrypted } from '../../../test/helpers.ts';

const { call } = useEditor();

describe('pdf-merge', () => {
  it('joins the files in the order sent, decrypting those that need the password', async () => {
    const r = await call(
      'pdf-merge',
      [
        pdf('qpdf-11-pages.pdf'),
        pdf('pypdf-pdflatex-4-pages.pdf'),
        join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf'),
      ],
      { password: 'user' },
    );
    expect(r.status).toBe(200);
    expect(pages(r.file)).toBe(35);
    expect(r.props.pages).toBe(35);
    expect(check(r.file)).toBe(0);
    expect(encrypted(r.file)).toBe(false);
    expect(text(r.file, 1)).toContain('Original page 1');
    expect(text(r.file, 11)).toContain('Original page 11');
    expect(text(r.file, 12)).toBe(text(pdf('pypdf-pdflatex-4-pages.pdf'), 1));
    expect(text(r.file, 35)).toBe(text(join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf'), 20, 'user'));
  });

  it('asks for the password of an encrypted input', async () => {
    const r = await call('pdf-merge', [pdf('qpdf-11-pages.pdf'), join(corpus, 'pdf-encrypted/pdfminer-aes-128.pdf')]);
    expect(r.error?.code).toBe('password_required');
  });
});
