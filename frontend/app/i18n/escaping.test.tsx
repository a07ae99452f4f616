import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useT } from './use-t.ts';

function Heading({ label }: { label: string }) {
  const t = useT();
  return <h1>{t('tool.heading', { label })}</h1>;
}

describe('interpolated values', () => {
  it('are escaped when rendered, never parsed as markup', () => {
    const html = renderToString(<Heading label={'<img src=x onerror="alert(1)">'} />);
    expect(html).toBe('<h1>Convert with &lt;img src=x onerror=&quot;alert(1)&quot;&gt;</h1>');
  });
});
