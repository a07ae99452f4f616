import { tools } from '@quire/catalog';
import { describe, expect, it } from 'vitest';
import { searchTool, suggestTools, type SearchEntry } from './tool-search.ts';

describe('the spec search (Enter with no suggestion chosen)', () => {
  it('finds the first tool of the spec list whose id contains the lowercase text', () => {
    expect(searchTool('merge')).toBe('pdf-merge');
    expect(searchTool(' JPG ')).toBe('jpg-to-pdf');
    expect(searchTool('pdf')).toBe('jpg-to-pdf');
    expect(searchTool('to-word')).toBe('pdf-to-word');
  });

  it('finds nothing for text outside the list, or none at all', () => {
    expect(searchTool('watermark')).toBeUndefined();
    expect(searchTool('zzz')).toBeUndefined();
    expect(searchTool('   ')).toBeUndefined();
  });
});

/** The catalog in English, as the header builds it. */
const english: SearchEntry[] = tools.map((t) => ({
  id: t.id,
  usage: t.usage,
  names: [t.name, t.id, ...t.aliases],
  keywords: t.keywords,
}));

describe('suggestions', () => {
  it.each([
    ['rotate', 'rotate-pdf'],
    ['watermark', 'add-watermark'],
    ['image', 'image-to-pdf'],
    ['images', 'pdf-to-images'],
    ['combine', 'pdf-merge'],
    ['split pdf', 'pdf-split'],
    ['protect', 'protect-pdf'],
    ['ocr', 'pdf-ocr'],
    ['merge', 'pdf-merge'],
    ['Compress', 'pdf-compress'],
    ['shrink', 'pdf-compress'],
    ['watermark-pdf', 'add-watermark'],
    ['web page', 'pdf-from-url'],
    ['metadata', 'pdf-metadata-cleaner'],
  ])('%j suggests %s first', (query, id) => {
    expect(suggestTools(query, english)[0]).toBe(id);
  });

  it('"image" suggests every image tool; a word that matches nothing suggests none', () => {
    expect(suggestTools('image', english)).toEqual(
      expect.arrayContaining(['image-to-pdf', 'jpg-to-pdf', 'pdf-to-images', 'extract-images']),
    );
    expect(suggestTools('zzz', english)).toEqual([]);
    expect(suggestTools('  ', english)).toEqual([]);
    // Every word must match: "split" alone would suggest Split PDF, "split zzz" nothing.
    expect(suggestTools('split zzz', english)).toEqual([]);
  });

  it('"pdf" suggests the most used of the tools whose name begins with it, no more than the limit', () => {
    const found = suggestTools('pdf', english);
    expect(found).toHaveLength(8);
    expect(found.slice(0, 2)).toEqual(['pdf-compress', 'pdf-merge']);
    expect(suggestTools('pdf', english, 3)).toHaveLength(3);
  });

  it('matches a prefix as the visitor types, without accents or Arabic vowel marks', () => {
    expect(suggestTools('rot', english)[0]).toBe('rotate-pdf');
    const spanish: SearchEntry[] = [
      { id: 'pdf-merge', usage: 1, names: ['Unir PDF'], keywords: ['combinar, fusión'] },
      { id: 'pdf-split', usage: 2, names: ['Dividir PDF'], keywords: ['separar'] },
    ];
    expect(suggestTools('fusion', spanish)).toEqual(['pdf-merge']);
    expect(suggestTools('COMBIN', spanish)).toEqual(['pdf-merge']);
    const arabic: SearchEntry[] = [{ id: 'pdf-merge', usage: 1, names: ['دمج PDF'], keywords: ['ضمّ'] }];
    expect(suggestTools('ضم', arabic)).toEqual(['pdf-merge']);
  });
});
