import { readServiceConfig } from '@quire/base';
import { createApp } from './app.ts';

// Wiring only. The kit's startService builds its own app, and the office service needs a front for
// Gotenberg's /health and /version, so it listens here the same way.

// Every setting is checked before LibreOffice starts: a bad one stops the service here, naming the setting.
const { port, host } = readServiceConfig('office');
const app = createApp();
// A tool that cannot load stops the service here too.
await app.loaded;
const server = app.listen(port, host, () => {
  console.log(JSON.stringify({ level: 'info', service: 'office', message: `listening on ${host}:${port}` }));
});
server.requestTimeout = 0; // jobs have their own timeout
const stop = () => {
  server.close();
  void app.close().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
