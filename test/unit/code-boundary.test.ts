// The line between the package's server code and its browser code (browser/, explorer/): each file marked, the shared
// code neutral, and the Next.js build and the server type-check failing on an import or an API across the line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const sourceFile = /\.tsx?$/;
const gatewaySource = 'packages/vovk-mcp-gateway/src';
/**
 * Folders of the package's source that run in the browser, on both sides, or in plain Node outside Next.js (`cli`, the
 * package's command); every other one is the server's.
 */
const notServer = new Set(['browser', 'explorer', 'shared', 'cli']);
/** Files of the package's source that are neither side's own: the entry points' re-exports, Next.js's config wrapper, types. */
const neutralFiles = /(^|\/)index\.ts$|^next\.ts$|\.d\.ts$/;

/** The TypeScript files under `dir` (relative to the repository), recursively. */
function sourcesIn(dir: string): string[] {
  return (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
    .filter((file) => sourceFile.test(file))
    .map((file) => path.join(dir, file));
}

/** The package's server files: every TypeScript file outside its browser, explorer and shared folders. */
function serverSources(): string[] {
  return sourcesIn(gatewaySource).filter((file) => {
    const relative = path.relative(gatewaySource, file);
    return !notServer.has(relative.split(path.sep)[0]) && !neutralFiles.test(relative);
  });
}

/** The package's browser files (its browser folder, entry point aside). */
const browserSources = () => sourcesIn(`${gatewaySource}/browser`).filter((file) => !neutralFiles.test(path.basename(file)));

/** Every module specifier a file imports (static, side-effect and dynamic imports, re-exports). */
function importsOf(file: string): string[] {
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  return [...source.matchAll(/(?:^import\s[^;]*?|^export\s[^;]*?\sfrom\s|import\()\s*'([^']+)'/gms)].map((match) => match[1]);
}

describe('each side of the line is marked', () => {
  test("every server file of the package imports server-only", () => {
    const unmarked = serverSources().filter((file) => !importsOf(file).includes('server-only'));
    expect(unmarked).toEqual([]);
  });

  test("every file of the package's browser folder imports client-only", () => {
    const unmarked = browserSources().filter((file) => !importsOf(file).includes('client-only'));
    expect(unmarked).toEqual([]);
  });

  test("the package's shared folder imports neither side nor a marker, so both sides may use it", () => {
    const crossing = sourcesIn(`${gatewaySource}/shared`).flatMap((file) =>
      importsOf(file)
        .filter((specifier) => /^(\.\.\/|@\/|server-only$|client-only$)/.test(specifier))
        .map((specifier) => `${file} → ${specifier}`),
    );
    expect(crossing).toEqual([]);
  });

  test("the package's cli folder imports only shared code and Node's own modules (it runs outside Next.js, without react-server)", () => {
    const reaching = sourcesIn(`${gatewaySource}/cli`).flatMap((file) =>
      importsOf(file)
        .filter((specifier) => !/^(node:|\.\.\/shared\/|\.\/)/.test(specifier))
        .map((specifier) => `${file} → ${specifier}`),
    );
    expect(reaching).toEqual([]);
  });

  test('server code never imports browser code, browser code never imports server code', () => {
    const target = (file: string, specifier: string) => path.relative(gatewaySource, path.join(path.dirname(file), specifier));
    const crossing = [
      ...serverSources().flatMap((file) =>
        importsOf(file).filter((s) => s.startsWith('.') && /^(browser|explorer)\//.test(target(file, s))).map((s) => `${file} → ${s}`),
      ),
      ...browserSources().flatMap((file) =>
        importsOf(file).filter((s) => s.startsWith('.') && !/^(browser|shared)\//.test(target(file, s))).map((s) => `${file} → ${s}`),
      ),
    ];
    expect(crossing).toEqual([]);
  });

  test('src/modules never imports src/mcp-apps (the MCP route hands the UIs down)', () => {
    const upward = sourcesIn('src/modules').filter((file) => importsOf(file).some((s) => s.startsWith('@/mcp-apps')));
    expect(upward).toEqual([]);
  });
});

/** Every file of the reference app (what an adopter writes): its source, and the configs that import the package. */
function appFiles(): string[] {
  return [...sourcesIn('src'), 'next.config.mjs', 'vovk.config.mjs'];
}

describe('the reference app uses the package as an adopter does', () => {
  const packageJson = JSON.parse(fs.readFileSync(path.join(root, 'packages/vovk-mcp-gateway/package.json'), 'utf8'));
  const entryPoints = Object.keys(packageJson.exports).map((key: string) => path.posix.join('vovk-mcp-gateway', key));

  test('the app imports the package only through the entry points of its exports map', () => {
    const deep = appFiles().flatMap((file) =>
      importsOf(file)
        .filter((specifier) => /^(vovk-mcp-gateway\b|@gateway\/)|packages\//.test(specifier) && !entryPoints.includes(specifier))
        .map((specifier) => `${file} → ${specifier}`),
    );
    expect(entryPoints).toContain('vovk-mcp-gateway');
    expect(deep).toEqual([]);
  });

  test('the package imports nothing of the app (no `@/` path, nothing outside its folder)', () => {
    const outward = sourcesIn(gatewaySource).flatMap((file) =>
      importsOf(file)
        .filter((s) => s.startsWith('@/') || (s.startsWith('.') && path.relative(gatewaySource, path.join(path.dirname(file), s)).startsWith('..')))
        .map((s) => `${file} → ${s}`),
    );
    expect(outward).toEqual([]);
  });
});

/** A throwaway Next.js app inside the repository (so `@gateway/…` and the packages resolve as in the real one). */
function probeApp(name: string, files: Record<string, string>): string {
  const dir = path.join(root, 'test-results', `boundary-probe-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const scaffold = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        jsx: 'react-jsx',
        module: 'esnext',
        moduleResolution: 'bundler',
        skipLibCheck: true,
        // The package as built (Turbopack does not map a source's `./x.js` import to `./x.ts`): the same modules. `@/`
        // is the app's: Next.js also builds the repository's src/instrumentation.ts into the probe, which imports it.
        paths: { '@gateway/*': ['../../packages/vovk-mcp-gateway/dist/*'], '@/*': ['../../src/*'] },
      },
    }),
    'next.config.mjs': 'export default { typescript: { ignoreBuildErrors: true } };\n',
    'app/layout.tsx': 'export default function Layout({ children }) { return <html><body>{children}</body></html>; }\n',
  };
  for (const [file, text] of Object.entries({ ...scaffold, ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** `next build` of a probe app: its exit status and everything it printed (colours off). */
function nextBuild(dir: string): { status: number | null; output: string } {
  const result = spawnSync(path.join(root, 'node_modules/.bin/next'), ['build'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
    timeout: 180_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.replace(/\x1b\[[0-9;]*m/g, '') };
}

describe('the Next.js build enforces the line', () => {
  test('a client component importing a server module, and a route importing a browser module, fail the build', () => {
    const dir = probeApp('crossing', {
      'app/page.tsx': `'use client';\nimport { config } from '@gateway/config';\nexport default function Page() { return <p>{typeof config}</p>; }\n`,
      'app/api/probe/route.ts': `import { savedToken } from '@gateway/browser/token';\nexport const GET = () => Response.json({ token: typeof savedToken });\n`,
    });
    const { status, output } = nextBuild(dir);
    expect(status).not.toBe(0);
    expect(output).toContain("'server-only' cannot be imported from a Client Component module");
    expect(output).toMatch(/vovk-mcp-gateway\/dist\/config\.js \[Client Component Browser\]/);
    expect(output).toContain("'client-only' cannot be imported from a Server Component module");
    expect(output).toContain('vovk-mcp-gateway/dist/browser/token.js');
  }, 200_000);

  test('the same probe importing each side from its own side, and shared code from both, builds', () => {
    const dir = probeApp('allowed', {
      'app/page.tsx': `'use client';\nimport { savedToken } from '@gateway/browser/token';\nimport { essenceOf } from '@gateway/shared/media-type';\nexport default function Page() { return <p>{essenceOf('text/plain')}{typeof savedToken}</p>; }\n`,
      'app/api/probe/route.ts': `import { toPublicError } from '@gateway/tools/public-error';\nimport { essenceOf } from '@gateway/shared/media-type';\nexport const GET = () => Response.json({ a: essenceOf('x/y'), b: typeof toPublicError });\n`,
    });
    const { status, output } = nextBuild(dir);
    expect(output).not.toContain('cannot be imported');
    expect(status).toBe(0);
  }, 200_000);
});

describe('the server type-check knows no browser', () => {
  test('a browser-only API in server code fails tsconfig.server.json', () => {
    const dir = path.join(root, 'test-results', 'boundary-probe-typecheck');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const probe = 'export const seen = [window.location.href, document.title, localStorage.length, sessionStorage.length, navigator.userAgent];\n';
    fs.writeFileSync(path.join(dir, 'probe.ts'), probe);
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.server.json', include: ['probe.ts'], compilerOptions: { noEmit: true } }),
    );
    const result = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    expect(result.status).not.toBe(0);
    for (const name of ['window', 'document', 'localStorage', 'sessionStorage', 'navigator']) {
      expect(result.stdout).toMatch(new RegExp(`error TS\\d+: Cannot find name '${name}'`));
    }
  }, 60_000);
});
