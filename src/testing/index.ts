// Test-only modules (test build only): fixtures always; conformance, benchmark and large-catalogue pieces when their switch is on.
import type { McpServer } from '@modelcontextprotocol/server';
import { config } from '@/lib/config';
import { generatedBenchTools } from './bench/bench-tools';
import BenchController from './bench/bench-controller';
import { catalogueControllers } from './catalogue';
import ConformanceController from './conformance/conformance-controller';
import ConformanceInputController from './conformance/conformance-input-controller';
import { conformanceTools, registerConformanceFixtures } from './conformance/conformance-fixtures';
import FixtureController from './fixture/fixture-controller';

/**
 * The test build's controllers: FixtureController always (the end-to-end tests' spec rows), ConformanceController
 * with MCP_CONFORMANCE=1, BenchController with GATEWAY_BENCHMARK=1, the generated catalogue's with
 * GATEWAY_CATALOGUE_PROCEDURES=N; the switches keep each suite's catalogue its own.
 */
export function testControllers() {
  const { conformanceFixtures, benchmark, catalogueProcedures } = config();
  return {
    FixtureController,
    ...(conformanceFixtures ? { ConformanceController, ConformanceInputController } : {}),
    ...(benchmark ? { BenchController } : {}),
    ...(catalogueProcedures > 0 ? catalogueControllers(catalogueProcedures) : {}),
  };
}

/** The test build's REST segments beside the root one, by name (their route files are `route.test-build.ts`). */
export function testSegments() {
  return {};
}

/** Standalone test tools: the conformance suite's with flat arguments, and GATEWAY_BENCHMARK_TOOLS generated ones. */
export function testTools() {
  const { conformanceFixtures, benchmarkExtraTools } = config();
  return [...(conformanceFixtures ? conformanceTools : []), ...generatedBenchTools(benchmarkExtraTools)];
}

/** What the conformance suite reads besides tools (resources, prompts, completion, logging), with MCP_CONFORMANCE=1. */
export function setupTestServer(): ((server: McpServer) => void) | undefined {
  return config().conformanceFixtures ? registerConformanceFixtures : undefined;
}
