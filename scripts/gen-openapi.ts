/**
 * Writes docs/openapi.json: the OpenAPI document the API serves at /openapi.json, built from its routes
 * and schemas/ (api/openapi/). A test fails when the file and the served document differ; run
 * `npm run openapi` after changing a route or a contract. Like `vetted api`, it needs PostgreSQL and Redis
 * (the app is built on a real system; no request is served). It then regenerates the TypeScript client's
 * types from the new document (as `npm run gen:client` does), so the two are never committed apart.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_PATH, generateTypes } from '../clients/typescript/scripts/generate.ts';
import { buildApp } from '../api/app.ts';
import { serializeDocument } from '../api/openapi/register.ts';
import { loadConfig } from '../src/config.ts';
import { createSystem } from '../src/system.ts';

const OPENAPI_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'openapi.json');

const system = await createSystem(loadConfig({ ...process.env, LOG_LEVEL: 'warn' }), { poolSize: 1 });
try {
  const app = await buildApp(system);
  await app.ready();
  writeFileSync(OPENAPI_FILE, serializeDocument(app.openapiDocument));
  const document = app.openapiDocument;
  const operations = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}: ${operations} operations`);
  writeFileSync(GENERATED_PATH, await generateTypes(JSON.parse(serializeDocument(document))));
  console.log(`wrote ${path.relative(process.cwd(), GENERATED_PATH)}`);
  await app.close();
} finally {
  await system.close();
}
