/**
 * The corpus sweep's own stack, made as the contract tests' is, on ports of its own (public 21080,
 * gateway 16100, services 16101...) so that both can be up in one run; results live long enough to
 * be downloaded after the slowest call. Its logs stay in .run/corpus-stack/logs.
 */
import { stackSetup } from '../contract/setup.ts';

export default stackSetup({
  runName: 'corpus-stack',
  portOffset: 13_000,
  uploadLimitMb: 5,
  resultTtlSeconds: 900,
  authEmulator: false,
});
