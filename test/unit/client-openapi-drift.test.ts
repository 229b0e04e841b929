/**
 * The TypeScript client's generated types against the API's OpenAPI document: regenerated in memory with
 * openapi-typescript's programmatic API, they must equal the committed file (else `npm run gen:client`), and
 * the typed `paths` must hold every operation the document has, under its method and operationId.
 */
import { readFile } from 'node:fs/promises';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GENERATED_PATH, generateTypes, readDocument } from '../../clients/typescript/scripts/generate.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** `GET /api/runs/{id} getRun` for every operation in the document. */
function documentOperations(document: Awaited<ReturnType<typeof readDocument>>): string[] {
  const found: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, { operationId?: string } | undefined>)[method];
      if (operation) found.push(`${method.toUpperCase()} ${path} ${operation.operationId}`);
    }
  }
  return found.sort();
}

/** The same list read from the generated `paths` interface: each method typed as operations["<id>"]. */
function typedOperations(source: string): string[] {
  const file = ts.createSourceFile('openapi.ts', source, ts.ScriptTarget.ES2022, true);
  const paths = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'paths');
  if (!paths) throw new Error('the generated file has no `paths` interface');
  const found: string[] = [];
  for (const member of paths.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeLiteralNode(member.type)) continue;
    const path = (member.name as ts.StringLiteral).text;
    for (const method of member.type.members) {
      if (!ts.isPropertySignature(method) || !method.type || !ts.isIndexedAccessTypeNode(method.type)) continue;
      const index = method.type.indexType;
      if (ts.isLiteralTypeNode(index) && ts.isStringLiteral(index.literal)) found.push(`${(method.name as ts.Identifier).text.toUpperCase()} ${path} ${index.literal.text}`);
    }
  }
  return found.sort();
}

describe('clients/typescript/src/generated/openapi.ts', () => {
  it('is exactly what openapi-typescript makes of docs/openapi.json (else run `npm run gen:client`)', async () => {
    const [expected, committed] = await Promise.all([readDocument().then(generateTypes), readFile(GENERATED_PATH, 'utf8')]);
    expect(committed === expected, 'the client types are stale: run `npm run gen:client` and commit the result').toBe(true);
  });

  it('types every operation of the document, under its path, method and operationId', async () => {
    const document = await readDocument();
    const expected = documentOperations(document);
    expect(expected.length).toBeGreaterThanOrEqual(37);
    expect(typedOperations(await readFile(GENERATED_PATH, 'utf8'))).toEqual(expected);
  });

  it('notices drift: a document with one more operation, or a changed field, generates something else', async () => {
    const document = await readDocument();
    const committed = await readFile(GENERATED_PATH, 'utf8');
    const added = structuredClone(document);
    added.paths!['/api/runs/{id}/archive'] = { post: { operationId: 'archiveRun', responses: { 204: { description: 'Archived' } } } };
    const addedText = await generateTypes(added);
    expect(addedText).not.toBe(committed);
    expect(typedOperations(addedText)).toContain('POST /api/runs/{id}/archive archiveRun');

    const changed = structuredClone(document);
    const decision = changed.components!.schemas!.Decision as { properties: Record<string, unknown> };
    decision.properties.payloadHash = { type: 'integer' };
    expect(await generateTypes(changed)).not.toBe(committed);
  });
});
