import { readServiceConfig, startService } from '@quire/service-kit';
import { health, tools } from './app.ts';

// Every setting is checked before the service starts: a bad one stops it here, naming the setting.
readServiceConfig('pdf-editor');
startService({ name: 'pdf-editor', tools, health });
