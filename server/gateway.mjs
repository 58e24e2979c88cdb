// The reference app's HTTP entry (`npm start`): the package's server entry, which drains on SIGTERM, as any app may run
// it (`npx vovk-mcp-gateway start` does the same). Usage: node server/gateway.mjs [-p PORT] [-H HOST]
import 'vovk-mcp-gateway/server';
