/**
 * The Firebase Authentication emulator (firebase-tools, Node only: Java is needed by other emulators,
 * not this one), which stands in for a Firebase project where there is none: the launcher runs one
 * (scripts/stack.ts) and so do the tests; the running gateway only talks to it. Each instance has a
 * directory of its own holding its firebase.json, its logs and its temporary files (the hub's locator
 * file among them, so that two instances of one project never share it).
 */
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { defaults } from '@quire/base';

/** The project every local run and test uses: a `demo-` project never reaches Google. */
export const demoProjectId = defaults.firebaseProjectId;

export interface AuthEmulatorPorts {
  /** The Auth emulator itself, the one the gateway and the browser talk to. */
  auth: number;
  /** The emulator suite's hub and logging ports, which it would otherwise take from fixed defaults. */
  hub: number;
  logging: number;
}

export interface AuthEmulatorCommand {
  command: string;
  args: string[];
  /** Run from here: firebase-tools reads firebase.json and writes its debug log in its working directory. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `127.0.0.1:<port>`, for FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  /** `http://127.0.0.1:<port>`: it answers 200 at `/` once it is ready. */
  url: string;
}

/** The firebase-tools command line program. */
export function firebaseCli(): string {
  const pkg = createRequire(import.meta.url).resolve('firebase-tools/package.json');
  return join(dirname(pkg), 'lib', 'bin', 'firebase.js');
}

/** Writes the emulator's firebase.json into `dir` and returns how to start it (not started). */
export async function prepareAuthEmulator(opts: {
  dir: string;
  ports: AuthEmulatorPorts;
  projectId?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<AuthEmulatorCommand> {
  const host = '127.0.0.1';
  const tmp = join(opts.dir, 'tmp');
  await mkdir(tmp, { recursive: true });
  const config = {
    emulators: {
      auth: { port: opts.ports.auth, host },
      hub: { port: opts.ports.hub, host },
      logging: { port: opts.ports.logging, host },
      ui: { enabled: false },
    },
  };
  await writeFile(join(opts.dir, 'firebase.json'), `${JSON.stringify(config, null, 2)}\n`);
  return {
    command: process.execPath,
    args: [firebaseCli(), 'emulators:start', '--only', 'auth', '--project', opts.projectId ?? demoProjectId],
    cwd: opts.dir,
    env: { ...(opts.env ?? process.env), TMPDIR: tmp, NO_UPDATE_NOTIFIER: '1', FORCE_COLOR: '0' },
    host: `${host}:${opts.ports.auth}`,
    url: `http://${host}:${opts.ports.auth}`,
  };
}
