export { createApp, serviceOptions } from './app.ts';
export { createRenderer, type Renderer } from './renderer.ts';
export { readSettings, type RendererSettings } from './settings.ts';
export { chromiumArgs, scratchRoot } from './browser.ts';
