import { startService } from '@quire/service-kit';
import { health, tools } from './app.ts';
import { loadPdfjs } from './pdfjs.ts';

// pdf.js is large: load it before the first request rather than during it.
void loadPdfjs();
startService({ name: 'pdf-extract', tools, health });
