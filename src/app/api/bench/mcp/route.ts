// Benchmark baseline route (test build only: src/testing/bench/handwritten-mcp.ts); the production build answers 404.
const notFound = () => new Response('Not found', { status: 404 });

const handler = __GATEWAY_TEST_BUILD__ ? (await import('@/testing/bench/handwritten-mcp')).handwrittenMcpHandler : notFound;

export { handler as POST };
