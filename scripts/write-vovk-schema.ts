// Writes .vovk-schema/ (what `vovk dev` fetches from a dev server) straight from the registry, for `vovk generate`.
import fs from 'node:fs';
import path from 'node:path';
import { initSegment } from 'vovk';
import { VovkSchemaIdEnum } from 'vovk/internal';

// The client is made from the production registry: what next.config.mjs compiles in for `npm run build`.
Object.assign(globalThis, { __GATEWAY_TEST_BUILD__: false });
const { controllers } = await import('@/modules');

const schemaDir = path.resolve('.vovk-schema');

/** The segment schema as the REST segment's `_schema_` route serves it, which vovk answers only in development. */
async function segmentSchema(): Promise<unknown> {
  Object.assign(process.env, { NODE_ENV: 'development' });
  const segment = initSegment({ controllers });
  const request = new Request('http://localhost/api/_schema_');
  const response = await segment.GET(request as never, { params: Promise.resolve({ vovk: ['_schema_'] }) });
  if (!response.ok) throw new Error(`The segment schema answered HTTP ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { schema: unknown }).schema;
}

/** The meta file `vovk dev` writes beside it with the default configuration. */
const meta = {
  $schema: VovkSchemaIdEnum.META,
  config: { libs: {}, rootEntry: 'api', $schema: VovkSchemaIdEnum.CONFIG },
};

fs.mkdirSync(schemaDir, { recursive: true });
fs.writeFileSync(path.join(schemaDir, 'root.json'), JSON.stringify(await segmentSchema(), null, 2));
fs.writeFileSync(path.join(schemaDir, '_meta.json'), JSON.stringify(meta, null, 2));
