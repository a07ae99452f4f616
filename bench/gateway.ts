/**
 * What the gateway adds to a call: the same cheap tool call sent straight to its service, and through
 * the gateway with and without downloading its result (and through nginx too), in turn in the same run.
 * Reports the median of each, the median extra time per call (target ≤ 10 ms), the ratio, and the
 * gateway's own CPU time per call, which unlike wall time does not depend on other work on the machine.
 */
import { openAsBlob, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startStack } from '../scripts/stack.ts';
import { corpus, median, time, type BenchReport } from './lib.ts';

const runs = Math.max(30, Number(process.env.BENCH_RUNS ?? 100));
/** Public port 33080, gateway 28100, image 28104: beside the tests' and the other benches' stacks. */
const portOffset = 25_000;
/**
 * The cheapest call there is: one small image to a one-page PDF, some 30 ms in all. (rotate-pdf renders
 * the page to check it, some 200 ms whose jitter on a busy machine hides a 10 ms difference.)
 */
const service = 'image';
const tool = 'image-to-pdf';
const input = join(corpus, 'images/textract-raw_text.png');
const fields: Record<string, string> = {};
const targetMs = 10;

async function call(url: string): Promise<Response> {
  const form = new FormData();
  form.append('file', await openAsBlob(input), basename(input));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(url, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** The ways of making the call, each timed to its last byte. */
function ways(serviceUrl: string, gatewayUrl: string, publicUrl: string) {
  const viaGateway = async (base: string, fetchResult: boolean) => {
    const { download } = (await (await call(`${base}/api/v1/tools/${tool}`)).json()) as { download: string };
    if (!fetchResult) return;
    const res = await fetch(`${base}/uploads/${encodeURIComponent(download)}`);
    if (!res.ok) throw new Error(`download: ${res.status}`);
    await res.arrayBuffer();
  };
  return {
    service: async () => void (await (await call(`${serviceUrl}/tools/${tool}`)).arrayBuffer()),
    gateway: () => viaGateway(gatewayUrl, false),
    'gateway + download': () => viaGateway(gatewayUrl, true),
    'nginx + gateway + download': () => viaGateway(publicUrl, true),
  };
}
type Way = keyof ReturnType<typeof ways>;

/** CPU time a process has used so far (user and system), in ms: its work, apart from waiting for a core. */
function cpuMs(pid: number): number {
  // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th, in clock ticks.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}
/** USER_HZ, which Linux fixes at 100 on every architecture we run on. */
const ticksPerSecond = 100;

/** The machine's one-minute load average: how much else was running. */
function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

export async function benchGateway(): Promise<BenchReport> {
  const runDir = await mkdtemp(join(tmpdir(), 'bench-gateway-'));
  const loadBefore = loadAverage();
  const timesMs = new Map<Way, number[]>();
  const gatewayCpuMs = new Map<Way, number>();
  try {
    const stack = await startStack({
      runDir,
      portOffset,
      services: [service],
      authEmulator: false,
      env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' },
    });
    try {
      const all = ways(stack.serviceUrls[service]!, stack.gatewayUrl, stack.url);
      const names = Object.keys(all) as Way[];
      const gatewayPid = stack.instances.gateway![0]!.pid;
      for (const name of names) await all[name](); // warm-up: first calls load code paths
      for (let i = 0; i < runs; i++) {
        // Each way in turn, starting with a different one each round, so that drift hits all alike.
        for (let k = 0; k < names.length; k++) {
          const name = names[(i + k) % names.length]!;
          const cpu = cpuMs(gatewayPid);
          timesMs.set(name, [...(timesMs.get(name) ?? []), (await time(all[name])) * 1000]);
          gatewayCpuMs.set(name, (gatewayCpuMs.get(name) ?? 0) + cpuMs(gatewayPid) - cpu);
        }
      }
    } finally {
      await stack.stop();
    }
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }

  const load = [loadBefore, loadAverage()];
  const direct = timesMs.get('service')!;
  const rows = [...timesMs].map(([way, ms]) => ({
    way,
    medianMs: median(ms),
    /** Median over rounds of this way's time less the direct call's in the same round. */
    extraMs: median(ms.map((t, i) => t - direct[i]!)),
    ratio: median(ms) / median(direct),
    /** The gateway's own CPU time per call, on average (clock ticks of 10 ms, summed over every call). */
    gatewayCpuMs: gatewayCpuMs.get(way)! / ms.length,
  }));
  const gateway = rows.find((r) => r.way === 'gateway + download')!;
  const verdict = gateway.extraMs <= targetMs ? 'pass' : '**FAIL**';
  const summary = [
    `### gateway overhead: ${tool} on ${basename(input)}, median of ${runs}, ways in turn`,
    '',
    '| way | median (ms) | extra per call (ms) | ratio | gateway CPU per call (ms) |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.way} | ${r.medianMs.toFixed(1)} | ${r.extraMs.toFixed(1)} | ${r.ratio.toFixed(2)}× | ${r.gatewayCpuMs.toFixed(1)} |`,
    ),
    '',
    `Through the gateway, result downloaded: ${gateway.extraMs.toFixed(1)} ms more per call than the service alone (target ≤ ${targetMs} ms): ${verdict}. "Extra" is the median, over rounds, of the difference to the direct call of the same round. The gateway's CPU per call is the hop's own work (reading the upload, calling the service, storing and counting the result); the rest of the extra time is waiting for a core. Shared 2-core machine, load average ${load.map((l) => l.toFixed(1)).join(' then ')}: other people's work adds noise to every row.`,
  ].join('\n');
  return {
    name: 'gateway',
    summary,
    data: { tool, input: basename(input), runs, load, rows, timesMs: Object.fromEntries(timesMs) },
  };
}
