// Benchmark floors (test build, GATEWAY_BENCHMARK=1): bare routes the benchmark compares both doors with; 404 otherwise.
const floors = __GATEWAY_TEST_BUILD__ ? await import('@/testing/bench/floors') : undefined;

async function handler(req: Request, { params }: { params: Promise<{ door: string }> }): Promise<Response> {
  return floors ? floors.benchFloor(req, (await params).door) : new Response(null, { status: 404 });
}

export { handler as GET, handler as POST, handler as DELETE };
