// Starts programs for the process that forked it (see spawner.ts), each in its own process group,
// and sends back what each wrote and how it ended. Plain JavaScript run without a loader, so that
// this process stays small: a fork costs what the forking process maps.
import { spawn } from 'node:child_process';

/** The programs running, by the id their parent gave them. */
const running = new Map();

const killGroup = (pid) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

function run({ id, command, args, cwd, env, maxOutput }) {
  let child;
  try {
    child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    process.send({ t: 'failed', id, message: String(err) });
    return;
  }
  running.set(id, child);
  if (child.pid) process.send({ t: 'started', id, pid: child.pid });
  const out = [];
  const err = [];
  let outLength = 0;
  let errLength = 0;
  child.stdout.on('data', (d) => {
    if (outLength < maxOutput) out.push(d);
    outLength += d.length;
  });
  child.stderr.on('data', (d) => {
    if (errLength < maxOutput) err.push(d);
    errLength += d.length;
  });
  let settled = false;
  child.on('error', (e) => {
    if (settled) return;
    settled = true;
    running.delete(id);
    process.send({ t: 'failed', id, message: e.message });
  });
  child.on('close', (code, signal) => {
    if (settled) return;
    settled = true;
    running.delete(id);
    process.send({ t: 'done', id, code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
  });
}

process.on('message', (message) => {
  if (message.t === 'run') run(message);
  else if (message.t === 'kill') {
    const child = running.get(message.id);
    if (child?.pid) killGroup(child.pid);
  }
});

// The parent is gone: nothing it started may outlive it.
process.on('disconnect', () => {
  for (const child of running.values()) if (child.pid) killGroup(child.pid);
  process.exit(0);
});
