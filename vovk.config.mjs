// vovk-cli settings for `npm run generate:client`: the typed REST client of the browser pages, in src/client/.
/** @type {import('vovk').VovkConfig} */
const config = {
  composedClient: {
    outDir: './src/client',
    fromTemplates: ['tsBase', 'schemaTs'],
  },
  outputConfig: {
    // Sends the gateway token (GATEWAY_TOKEN) with every request of the client.
    imports: { fetcher: 'vovk-mcp-gateway/browser' },
  },
};

export default config;
