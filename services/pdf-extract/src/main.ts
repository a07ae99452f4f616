import { setFlagsFromString } from 'node:v8';
import { readServiceConfig } from '@quire/base';
import { startService } from '@quire/service-kit';
import { health, loaded, tools } from './app.ts';
import { loadPdfjs } from './pdfjs.ts';

// A long document's layout is garbage once written, and the next one's builds up before V8 collects
// it: left to V8's own heap growth (up to 4× what is live), a second 700-page book took the service
// from 450 to 600 MB. 1.5× keeps it near 450 MB, at no measured cost in time.
setFlagsFromString('--heap-growing-percent=50');
// Every setting is checked before the service starts: a bad one stops it here, naming the setting.
readServiceConfig('pdf-extract');
// pdf.js is large: load it before the first request rather than during it.
void loadPdfjs();
// A tool that cannot load, or a setting its code reads, stops it here too.
await loaded;
startService({ name: 'pdf-extract', tools, health });
