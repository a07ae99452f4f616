/**
 * Writes nginx.conf to stdout from the container's environment, when nginx's container starts: the
 * renderer `npm start` uses (infra/nginx/render.ts), bundled with what it needs into one file that
 * node runs alone (gateway.Dockerfile). A bad or missing setting stops the container, naming it.
 */
import { renderContainerConfig } from '../nginx/render.ts';

try {
  process.stdout.write(await renderContainerConfig(process.env));
} catch (err) {
  process.stderr.write(`nginx-conf: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
