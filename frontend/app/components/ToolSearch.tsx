import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { toolKey, useT } from '../i18n/use-t.ts';
import { searchTool, suggestTools } from '../lib/tool-search.ts';
import { findTool, tools } from '../lib/tools.ts';

const listId = 'tool-search-list';
const optionId = (id: string) => `tool-search-${id}`;

/**
 * The header's tool search, an ARIA combobox: typing suggests tools from the whole catalog; the arrow
 * keys move through them, Enter opens the highlighted one and Escape closes the list. Enter with none
 * highlighted keeps the spec's search (the first of its list whose id holds the text, else its alert).
 */
export function ToolSearch({ open, onDone }: { open: boolean; onDone: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(-1);
  const found = suggestTools(
    query,
    tools.map((tool) => ({
      id: tool.id,
      usage: tool.usage,
      names: [t(toolKey(tool.id, 'name')), tool.name, tool.id, ...tool.aliases],
      keywords: [t(toolKey(tool.id, 'keywords')), ...tool.keywords],
    })),
  );
  const shown = expanded && found.length > 0;

  function close() {
    setExpanded(false);
    setActive(-1);
  }

  function go(id: string) {
    close();
    setQuery('');
    onDone();
    void navigate(`/tools/${id}`);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const chosen = shown ? found[active] : undefined;
    const id = chosen ?? searchTool(query);
    if (id) go(id);
    else window.alert(t('nav.searchNotFound'));
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (found.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setExpanded(true);
      setActive((i) => (i < 0 && step < 0 ? found.length - 1 : (i + step + found.length) % found.length));
    } else if (e.key === 'Escape' && shown) {
      // Closes the list; the typed text stays (a second Escape clears the field as usual).
      e.preventDefault();
      close();
    }
  }

  return (
    <form role="search" id="site-search" className={open ? 'search open' : 'search'} onSubmit={submit}>
      <label htmlFor="tool-search" className="visually-hidden">
        {t('nav.searchLabel')}
      </label>
      <div className="combo">
        <input
          id="tool-search"
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={shown}
          aria-controls={listId}
          aria-activedescendant={shown && active >= 0 ? optionId(found[active]!) : undefined}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setExpanded(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
          placeholder={t('nav.searchPlaceholder')}
          autoComplete="off"
        />
        <ul id={listId} role="listbox" aria-label={t('nav.searchSuggestions')} hidden={!shown}>
          {shown &&
            found.map((id, i) => (
              <li
                key={id}
                id={optionId(id)}
                role="option"
                aria-selected={i === active}
                // Keeps the focus in the field, so that the click lands before the list closes.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => go(id)}
              >
                <span aria-hidden="true">{findTool(id)?.icon}</span> {t(toolKey(id, 'name'))}
              </li>
            ))}
        </ul>
      </div>
      <button type="submit">{t('nav.searchButton')}</button>
      <p className="visually-hidden" role="status">
        {expanded && query.trim() ? t('nav.searchCount', { count: found.length }) : ''}
      </p>
    </form>
  );
}
