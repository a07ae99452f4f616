import { startService } from '@quire/service-kit';
import { serviceOptions } from './app.ts';
import { createRenderer } from './renderer.ts';

const renderer = createRenderer();
void renderer.supervisor.warm();
startService({ ...serviceOptions(renderer), onClose: renderer.close });
