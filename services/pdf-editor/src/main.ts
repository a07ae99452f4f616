import { startService } from '@quire/service-kit';
import { health, tools } from './app.ts';

startService({ name: 'pdf-editor', tools, health });
