import { startService } from '@quire/service-kit';
import { health, tools } from './app.ts';

startService({ name: 'image', tools, health });
