import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
import { catalogPlugin } from './catalog-plugin.ts';
import { clientChunks } from './client-chunks.ts';
import { productionRouter } from './router-build.ts';
import { siteConfig } from './site.config.ts';

export default defineConfig({
  plugins: [catalogPlugin(), reactRouter(), productionRouter(), clientChunks()],
  define: {
    // Build-time settings the pages read; see site.config.ts.
    __SITE_URL__: JSON.stringify(siteConfig.siteUrl),
    __TAG_MANAGER_ID__: JSON.stringify(siteConfig.tagManagerId),
  },
  build: { target: 'es2022' },
});
