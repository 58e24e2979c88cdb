// The package's server entry ("vovk-mcp-gateway"): the MCP door, the decorators procedures use, the formatter, the
// REST-side guards, what a procedure may call while it runs, and the database the app shares with the gateway.
// Everything an app imports from the gateway is here.
export { GATEWAY_NAME, GATEWAY_TITLE, GATEWAY_VERSION } from './about.js';
export { resourceMetadataRoute } from './auth/resource-metadata.js';
export { scopes } from './auth/scopes.js';
export { type PagingParameters, type ResultBudgetDeclaration, resultBudget } from './budget/budget-decorator.js';
export { toolAliases } from './catalogue/tool-aliases.js';
export { alwaysListed, toolset } from './catalogue/toolsets.js';
export {
  ConfigError,
  config,
  configOrExit,
  configureGateway,
  type GatewayConfig,
  type GatewaySettings,
  orExit,
  readVariables,
  settingsFromEnv,
  type Variable,
  type VariableTable,
  variable,
  variableSchemas,
  variablesTable,
} from './config.js';
export { database, migrateGateway } from './db/database.js';
export type { ChangeListener, DataChange, MigrationSet, Query, SqlDriver } from './db/driver.js';
export { liveness, readiness } from './health.js';
export { createMcpGateway, type McpGatewayOptions, type McpGatewayRoute } from './mcp-gateway.js';
export { guarded } from './http/guards.js';
export { stampPeerAddresses } from './http/peer-address.js';
export { knownPublicOrigin, publicOrigin } from './http/public-origin.js';
export { guardedSegment } from './http/rest-segment.js';
export { installGracefulShutdown, onShutdown } from './lifecycle.js';
export { commitPoint, reportProgress, WorkCancelled, workSignal } from './long-work/current-work.js';
export { jobRunner } from './long-work/job-runner.js';
export { longRunning } from './long-work/long-running.js';
export { cancelRestJob, getRestJob } from './long-work/rest-jobs.js';
export { askClient, type ClientAnswer, clientCan, confirm, inputRequest } from './mcp/client-input.js';
export type { GatewayModules } from './mcp/gateway-server.js';
export { declaredScopesOf, type Segments } from './mcp/gateway-tools.js';
export { leftOutProcedures } from './mcp/left-out.js';
export { announceListChanged, type ChangingList } from './mcp/list-changes.js';
export { mcpApp, type McpAppUis } from './mcp/mcp-apps.js';
export { resource } from './mcp/resources/resource-decorator.js';
export { openApiDocument } from './openapi/openapi-document.js';
export { currentCaller, currentToolCall, requestContext } from './request-context.js';
export { ADMIN_SCOPE, READ_SCOPE, WRITE_SCOPE } from './shared/scope-names.js';
export { startTracing } from './telemetry.js';
export {
  createMcpFormatter,
  DetailedHttpException,
  type McpFormatter,
  type McpFormatterOptions,
  type StandardTool,
  standardTool,
  withFormattedOutput,
} from './tools/index.js';
export { ServiceUnavailableError } from './unavailable.js';
