import { readServiceConfig, startService } from '@quire/service-kit';
import { health, loaded, tools } from './app.ts';

// Every setting is checked before the service starts: a bad one stops it here, naming the setting.
readServiceConfig('image');
// So do a tool that cannot load and the settings its code reads.
await loaded;
startService({ name: 'image', tools, health });
