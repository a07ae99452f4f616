/**
 * Debian's Chromium, headless, as every part of Quire starts it (the renderer, the site's browser tests,
 * the benchmarks): no sandbox (it runs as root or in a container), no GPU, no shared-memory files, and
 * none of Chromium's own background traffic (updates, sync, field trials, QUIC).
 */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const headlessChromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
