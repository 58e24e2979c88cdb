// The build flavour Next.js compiles in (next.config.mjs `compiler.defineServer`): true only in the test build.
declare const __GATEWAY_TEST_BUILD__: boolean;
