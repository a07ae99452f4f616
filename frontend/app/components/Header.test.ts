import { describe, expect, it } from 'vitest';
import { searchTool } from './Header.tsx';

describe('tool search', () => {
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
