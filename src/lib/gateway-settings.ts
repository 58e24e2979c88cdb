// The reference app's gateway settings: the documented environment variables (docs/configuration.md) mapped to
// options by the package's helper. An invalid variable throws a ConfigError naming it; the instrumentation reads them
// first when the server starts and exits 1 on one.
import { settingsFromEnv } from 'vovk-mcp-gateway';

export const gatewaySettings = settingsFromEnv(process.env);
