import type { Tool } from '../lib/tools.ts';
import { Link } from 'react-router';
import { toolKey, useLanguageCode, useT } from '../i18n/use-t.ts';

export function ToolCard({ tool, uses }: { tool: Tool; uses: number }) {
  const t = useT();
  const language = useLanguageCode();
  return (
    <Link to={`/tools/${tool.id}`} className="card tool-card">
      <span className="tool-icon" aria-hidden="true">
        {tool.icon.includes('/') ? <img src={tool.icon} alt="" width="32" height="32" /> : tool.icon}
      </span>
      <span className="tool-name">{t(toolKey(tool.id, 'name'))}</span>
      <span className="tool-description">{t(toolKey(tool.id, 'description'))}</span>
      <span className="tool-uses">{t('home.uses', { count: uses.toLocaleString(language) })}</span>
    </Link>
  );
}
