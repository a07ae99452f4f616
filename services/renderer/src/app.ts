import { countRestarts } from '@quire/base';
import { createServiceApp, type ServiceOptions } from '@quire/service-kit';
import { createRenderer, type Renderer } from './renderer.ts';

/**
 * The kit's service options for a renderer: its three tools, a health check that wakes Chromium, and
 * Chromium's restarts counted in the service's metrics.
 */
export function serviceOptions(renderer: Renderer): ServiceOptions {
  return {
    name: 'renderer',
    tools: renderer.tools,
    health: renderer.health,
    routes: (_app, kit) => {
      renderer.supervisor.onRestart = countRestarts(kit.metrics, 'chromium');
    },
  };
}

/**
 * The service's express app, without listening, for in-process tests. Pass the renderer to close its
 * browser afterwards (`renderer.close()`).
 */
export function createApp(renderer: Renderer = createRenderer()) {
  return createServiceApp(serviceOptions(renderer));
}
