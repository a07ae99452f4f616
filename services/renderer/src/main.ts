import { readServiceConfig } from '@quire/base';
import { startService } from '@quire/service-kit';
import { serviceOptions } from './app.ts';
import { createRenderer } from './renderer.ts';

// Every setting is checked before the browser starts: a bad one stops the service here, naming the setting.
readServiceConfig('renderer');
const renderer = createRenderer();
// A tool that cannot load stops the service here too.
await renderer.loaded;
void renderer.supervisor.warm();
startService({ ...serviceOptions(renderer), onClose: renderer.close });
