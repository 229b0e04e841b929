/**
 * Generates src/generated/openapi.ts from the API's OpenAPI document (docs/openapi.json) with openapi-typescript.
 * `npm run gen:client` at the root runs it; the drift test (test/unit/client-openapi-drift.test.ts) calls
 * `generateTypes` on the same document and fails when the committed file says anything else, so the client's
 * types can never quietly fall behind the API.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

export const DOCUMENT_PATH = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
export const GENERATED_PATH = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

const HEADER = `${COMMENT_HEADER.trimEnd()}\n// Source: docs/openapi.json. Regenerate with \`npm run gen:client\`; a test fails when this file is stale.\n\n`;

/** The generated module's text for an OpenAPI document. Deterministic: the same document gives the same text. */
export async function generateTypes(document: OpenAPI3): Promise<string> {
  // The document is passed parsed (its $refs are all internal), so no file or network is read during generation.
  const ast = await openapiTS(document, { silent: true });
  return HEADER + astToString(ast);
}

export async function readDocument(path = DOCUMENT_PATH): Promise<OpenAPI3> {
  return JSON.parse(await readFile(path, 'utf8')) as OpenAPI3;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(GENERATED_PATH, await generateTypes(await readDocument()));
  console.log(`wrote ${GENERATED_PATH}`);
}
