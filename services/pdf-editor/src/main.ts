import { readServiceConfig } from '@quire/base';
import { startService } from '@quire/service-kit';
import { health, loaded, tools } from './app.ts';

// Every setting is checked before the service starts: a bad one stops it here, naming the setting.
readServiceConfig('pdf-editor');
// A tool that cannot load, or a setting its code reads, stops it here too.
await loaded;
startService({ name: 'pdf-editor', tools, health });
