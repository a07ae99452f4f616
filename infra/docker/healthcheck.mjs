// HEALTHCHECK of the Node images (slim images have no curl): exits 0 when the address given answers 2xx.
const res = await fetch(process.argv[2], { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
process.exit(res?.ok ? 0 : 1);
