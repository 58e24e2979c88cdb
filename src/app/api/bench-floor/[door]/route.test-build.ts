// Benchmark floors (test build only: `.test-build.ts` is a route extension of the test build alone, see next.config.mjs).
import { benchFloor } from '@/testing/bench/floors';

async function handler(req: Request, { params }: { params: Promise<{ door: string }> }): Promise<Response> {
  return benchFloor(req, (await params).door);
}

export { handler as GET, handler as POST, handler as DELETE };
