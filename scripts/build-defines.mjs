// What next.config.mjs compiles into the server code (`compiler.defineServer`), for a Node process that loads the app's
// modules outside Next.js (`npm run tools:lock`): `__GATEWAY_TEST_BUILD__`, true when GATEWAY_TEST_BUILD=1.
globalThis.__GATEWAY_TEST_BUILD__ = process.env.GATEWAY_TEST_BUILD === '1';
