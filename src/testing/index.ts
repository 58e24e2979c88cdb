// Test-only modules (test build only): fixtures always; conformance, benchmark and large-catalogue pieces when their switch is on.
import type { McpServer } from '@modelcontextprotocol/server';
import { appSettings } from '@/lib/settings';
import { generatedBenchTools } from './bench/bench-tools';
import BenchController from './bench/bench-controller';
import { catalogueControllers } from './catalogue';
import ConformanceController from './conformance/conformance-controller';
import ConformanceInputController from './conformance/conformance-input-controller';
import { conformanceTools, registerConformanceFixtures } from './conformance/conformance-fixtures';
import FixtureController from './fixture/fixture-controller';
import ArktypeStyleController from './vovk-styles/arktype-style-controller';
import EdgeStyleController from './vovk-styles/edge-style-controller';
import HelloStyleController from './vovk-styles/hello-style-controller';
import PlainStyleController from './vovk-styles/plain-style-controller';
import StreamStyleController from './vovk-styles/stream-style-controller';
import UploadStyleController from './vovk-styles/upload-style-controller';
import ValibotStyleController from './vovk-styles/valibot-style-controller';

/**
 * The test build's controllers: FixtureController and the Vovk-style ones (`vovk-styles/`: procedures written as
 * Vovk's docs teach) always (the end-to-end tests' spec rows; with the segments' ones the catalogue passes
 * MCP_LIST_MAX's default of 40 tools, so the e2e servers raise it to list it flat — the bench lists `?tools=all`),
 * ConformanceController with MCP_CONFORMANCE=1,
 * BenchController with GATEWAY_BENCHMARK=1, the generated catalogue's with GATEWAY_CATALOGUE_PROCEDURES=N; the
 * switches keep each suite's catalogue its own.
 */
export function testControllers() {
  const { conformanceFixtures, benchmark, catalogueProcedures } = appSettings();
  return {
    FixtureController,
    HelloStyleController,
    StreamStyleController,
    ValibotStyleController,
    UploadStyleController,
    PlainStyleController,
    ...(conformanceFixtures ? { ConformanceController, ConformanceInputController } : {}),
    ...(benchmark ? { BenchController } : {}),
    ...(catalogueProcedures > 0 ? catalogueControllers(catalogueProcedures) : {}),
  };
}

/**
 * The test build's REST segments beside the root one, by name (their route files are `route.test-build.ts`, each
 * serving the same controllers): `static` (/api/static/…, the arktype procedure) and `edge` (/api/edge/…, on the
 * edge runtime).
 */
export function testSegments() {
  return { static: { ArktypeStyleController }, edge: { EdgeStyleController } };
}

/** Standalone test tools: the conformance suite's with flat arguments, and GATEWAY_BENCHMARK_TOOLS generated ones. */
export function testTools() {
  const { conformanceFixtures, benchmarkExtraTools } = appSettings();
  return [...(conformanceFixtures ? conformanceTools : []), ...generatedBenchTools(benchmarkExtraTools)];
}

/** What the conformance suite reads besides tools (resources, prompts, completion, logging), with MCP_CONFORMANCE=1. */
export function setupTestServer(): ((server: McpServer) => void) | undefined {
  return appSettings().conformanceFixtures ? registerConformanceFixtures : undefined;
}
