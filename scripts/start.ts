/**
 * `npm start`: runs the whole site locally (nginx, the gateway, every service) until Ctrl-C.
 * setup.sh has installed what is needed; the site is built here first.
 */
import { spawnSync } from 'node:child_process';
import { defaults, readSettings, setting, type SettingsOf } from '@quire/base';
import { repoRoot, startStack, type Stack } from './stack.ts';

/** The launcher's own settings; every process it starts reads its own as well. */
const launcherSettings = {
  /** The public port, nginx's. */
  PORT: setting.port(defaults.publicPort),
  LISTEN_HOST: setting.text(defaults.host),
  DATA_DIR: setting.optionalText(),
  WORK_DIR: setting.optionalText(),
};

let settings: SettingsOf<typeof launcherSettings>;
try {
  settings = readSettings(launcherSettings);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

// Built on every start, so the pages always match the code and the settings (SITE_URL, TAG_MANAGER_ID).
console.log('Building the site...');
const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-site.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

// Signals are handled from the start: a Ctrl-C while the stack starts stops what is already running.
const starting = new AbortController();
let stack: Stack | undefined;
let exiting = false;
const shutdown = (code: number) => {
  if (!stack) return starting.abort();
  if (exiting) return;
  exiting = true;
  console.log('Stopping Quire...');
  void stack.stop().then(() => {
    console.log('Stopped.');
    process.exit(code);
  });
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(0));

try {
  stack = await startStack({
    port: settings.PORT,
    listenHost: settings.LISTEN_HOST,
    dataDir: settings.DATA_DIR,
    workDir: settings.WORK_DIR,
    echo: true,
    signal: starting.signal,
  });
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(starting.signal.aborted ? 0 : 1);
}

void stack.crashed.then((message) => {
  console.error(`Quire stopped because ${message}`);
  shutdown(1);
});

console.log(`\nQuire is running on ${stack.url}  (logs in ${stack.logDir}; press Ctrl-C to stop)\n`);
