// What JSON.stringify writes while a piece of code runs: for tests that show a value is not serialized again.
import { vi } from 'vitest';

/** Every text JSON.stringify returns while `run` runs: its longest one's length. */
export async function longestSerialization(run: () => Promise<unknown>): Promise<number> {
  const stringify = JSON.stringify;
  let longest = 0;
  const spy = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
    const text = stringify(...args);
    longest = Math.max(longest, text?.length ?? 0);
    return text;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return longest;
}
