import { createLogger, type Logger } from '@quire/base';
import { toolFolders, type ToolRun } from '@quire/service-kit';
import { BrowserSupervisor } from './browser.ts';
import { createPrinting } from './printing.ts';
import { readSettings, type RendererSettings } from './settings.ts';

export interface Renderer {
  settings: RendererSettings;
  supervisor: BrowserSupervisor;
  /** The catalog's renderer tools, each from its folder under tools/, sharing this renderer's browser. */
  tools: Record<string, ToolRun>;
  /** Settles once every tool's module has loaded (see toolFolders). */
  loaded: Promise<void>;
  health: () => Promise<Record<string, unknown>>;
  close: () => Promise<void>;
}

export function createRenderer(
  overrides: Partial<RendererSettings> = {},
  log: Logger = createLogger('renderer'),
): Renderer {
  const settings: RendererSettings = { ...readSettings(), ...overrides };
  const supervisor = new BrowserSupervisor(settings, log);
  const { tools, loaded } = toolFolders(
    'renderer',
    new URL('./tools/', import.meta.url),
    createPrinting(settings, supervisor),
  );
  return {
    settings,
    supervisor,
    tools,
    loaded,
    health: () => supervisor.health(),
    close: () => supervisor.close(),
  };
}
