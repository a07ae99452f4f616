import { exec } from './exec.ts';

/**
 * The first line a program prints about its version (`--version` unless other `args` are given), for a
 * service's health check; throws when the program does not run. Some programs (pdftoppm) print it on stderr.
 */
export async function programVersion(
  command: string,
  args: readonly string[] = ['--version'],
  timeoutMs = 5000,
): Promise<string> {
  const { code, stdout, stderr } = await exec(command, args, { timeoutMs });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}`);
  return (stdout || stderr).split('\n')[0]!.trim();
}
