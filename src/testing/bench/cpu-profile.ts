// The server's CPU profile over a window the benchmark chooses (test build, GATEWAY_BENCHMARK=1): V8's sampling
// profiler through an in-process inspector session, so the profile holds the load and none of the start-up.
import { Session } from 'node:inspector/promises';

let session: Session | undefined;

/** Starts sampling (every 200 µs); a profile already under way is dropped. */
export async function startCpuProfile(): Promise<void> {
  session?.disconnect();
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
}

/** Stops sampling: the profile (`.cpuprofile` JSON, as Chrome DevTools and speedscope read it). */
export async function stopCpuProfile(): Promise<unknown> {
  if (!session) throw new Error('No CPU profile under way');
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  session = undefined;
  return profile;
}
