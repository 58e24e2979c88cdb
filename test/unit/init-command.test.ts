// `npx vovk-mcp-gateway init` (the package's bin) on app folders: it writes the MCP route from the root segment's
// controllers and wraps the Next.js config, and never overwrites what the app already has.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'packages/vovk-mcp-gateway/bin/vovk-mcp-gateway.mjs');

/** A throwaway app folder with these files (under test-results/, outside every build). */
function appWith(name: string, files: Record<string, string>): string {
  const dir = path.join(root, 'test-results', `init-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of Object.entries({ 'package.json': '{"name":"app"}', ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const init = (dir: string) => spawnSync(process.execPath, [bin, 'init'], { cwd: dir, encoding: 'utf8' });
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

const segment = `import { initSegment } from 'vovk';
import UserController from '../../../modules/user/user-controller';
import PostController from '../../../modules/post/post-controller';
import { unrelated } from 'elsewhere';

const controllers = {
  UserRPC: UserController,
  PostRPC: PostController,
};

export type Controllers = typeof controllers;

export const { GET, POST, PUT, DELETE } = initSegment({ controllers });
`;

describe('init', () => {
  test('writes the route from the root segment’s controllers and wraps the config, keeping the app’s settings', () => {
    const dir = appWith('fresh', {
      'src/app/api/[[...vovk]]/route.ts': segment,
      'next.config.ts': "import type { NextConfig } from 'next';\n\nconst nextConfig: NextConfig = { reactStrictMode: true };\n\nexport default nextConfig;\n",
    });
    const run = init(dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('wrote src/app/api/mcp/route.ts');
    const route = read(dir, 'src/app/api/mcp/route.ts');
    expect(route).toContain("import { createMcpGateway } from 'vovk-mcp-gateway';");
    expect(route).toContain("import UserController from '../../../modules/user/user-controller';");
    expect(route).toContain("import PostController from '../../../modules/post/post-controller';");
    expect(route).not.toContain('elsewhere');
    expect(route).toMatch(/export const \{ GET, POST, DELETE \} = createMcpGateway\(\{ controllers: \{\s*UserRPC: UserController,\s*PostRPC: PostController,\s*\} \}\);/);
    const config = read(dir, 'next.config.ts');
    expect(config).toContain("import { withMcpGateway } from 'vovk-mcp-gateway/next';");
    expect(config).toContain('export default withMcpGateway(nextConfig);');
    expect(config).toContain('reactStrictMode: true');
  });

  test('composes with a config wrapper the app already has', () => {
    const dir = appWith('wrapped', {
      'app/api/[[...vovk]]/route.ts': segment,
      'next.config.mjs': "import nextra from 'nextra';\nconst withNextra = nextra({});\nexport default withNextra({ output: 'standalone' });\n",
    });
    expect(init(dir).status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'app/api/mcp/route.ts'))).toBe(true);
    expect(read(dir, 'next.config.mjs')).toContain("export default withMcpGateway(withNextra({ output: 'standalone' }));");
  });

  test('refuses to overwrite: a second run changes nothing and says why', () => {
    const dir = appWith('again', { 'src/app/api/[[...vovk]]/route.ts': segment });
    expect(init(dir).status).toBe(0);
    const before = { route: read(dir, 'src/app/api/mcp/route.ts'), config: read(dir, 'next.config.ts') };
    fs.appendFileSync(path.join(dir, 'src/app/api/mcp/route.ts'), '// the app edited its route\n');
    const again = init(dir);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('src/app/api/mcp/route.ts exists; it was not overwritten');
    expect(again.stderr).toContain('next.config.ts already uses withMcpGateway');
    expect(read(dir, 'src/app/api/mcp/route.ts')).toBe(`${before.route}// the app edited its route\n`);
    expect(read(dir, 'next.config.ts')).toBe(before.config);
  });

  test('outside an app, or with no root segment, it says what is missing and writes no route', () => {
    const noApp = path.join(root, 'test-results', 'init-nothing');
    fs.rmSync(noApp, { recursive: true, force: true });
    fs.mkdirSync(noApp, { recursive: true });
    const outside = init(noApp);
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain('No package.json');
    const dir = appWith('no-segment', {});
    const run = init(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('no root Vovk segment');
    expect(fs.existsSync(path.join(dir, 'app/api/mcp/route.ts'))).toBe(false);
  });
});
