import { killGroup, lastLines, spawnChild, stopChild, type Child } from './child.ts';

/**
 * The stack's processes in the layers they start in (services, gateways, nginx), each layer healthy
 * before the next: stopped in reverse, so nothing is left calling a process that has gone. A child
 * that exits while the stack is meant to run is reported through `crashed`.
 */
export class Layers {
  /** Settles when a child exits while the stack is meant to be running, naming it. */
  readonly crashed: Promise<string>;
  private reportCrash: (message: string) => void = () => {};
  private readonly layers: Child[][] = [];
  private stopping = false;
  private stopped: Promise<void> | undefined;
  /** Should the launcher exit without stopping the stack, its children go with it. */
  private readonly killAllNow = () => this.layers.flat().forEach((c) => killGroup(c, 'SIGKILL'));

  constructor(private readonly opts: { cwd: string; logDir: string; echo: boolean; stopGraceMs: number }) {
    this.crashed = new Promise<string>((r) => (this.reportCrash = r));
    process.on('exit', this.killAllNow);
  }

  /** Starts a process of the layer being built; `add` it once the layer is complete. */
  launch(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, cwd = this.opts.cwd): Child {
    const child = spawnChild(name, command, args, { cwd, env, logDir: this.opts.logDir, echo: this.opts.echo });
    void child.exit.then(() => {
      if (!this.stopping) this.reportCrash(`${child.name} ${child.exitDescription}.\n${lastLines(child)}`);
    });
    return child;
  }

  add(layer: Child[]): void {
    this.layers.push(layer);
  }

  /** Stops every child, last layer first. Idempotent. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      for (const layer of [...this.layers].reverse()) {
        await Promise.all(layer.map((c) => stopChild(c, this.opts.stopGraceMs)));
      }
      process.off('exit', this.killAllNow);
    })();
    return this.stopped;
  }
}
