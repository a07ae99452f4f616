import { services } from '@quire/catalog';
import { envInt } from '@quire/service-kit';
import { createApp } from './app.ts';

// Wiring only. The kit's startService builds its own app, and the office service needs a front for
// Gotenberg's /health and /version, so it listens here the same way (see the integration notes).
const app = createApp();
const port = envInt('PORT', services.office.port);
const host = process.env.HOST ?? '127.0.0.1';
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
