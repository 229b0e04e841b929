/**
 * A contract from schemas/ as one self-contained JSON Schema: every `$ref` (to another file or inside one)
 * replaced by what it points at. MCP clients receive a tool's inputSchema and outputSchema on their own, with
 * no way to fetch `https://vetted.dev/schemas/...`, so the MCP server sends them inlined. The contracts have no
 * recursive references; one would be refused here rather than inlined forever.
 */
import { VettedError } from '../errors.ts';
import { contractId, loadContractSchemas, type ContractName } from './contracts.ts';

type Json = unknown;

/** Keywords whose values are data, not schemas: a `$ref` inside them is not a reference. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);
/** Keywords that only make sense at a document's root (or to a resolver): dropped from inlined content. */
const DOCUMENT_KEYWORDS = new Set(['$id', '$schema', 'definitions']);

/** The contract `name` (or a definition in it: `#/definitions/X`) with every reference inlined. */
export function inlineContract(name: ContractName, fragment = ''): Record<string, unknown> {
  const documents = new Map(loadContractSchemas().map(({ id, schema }) => [id, schema]));
  const target = resolve(documents, contractId(name, fragment), contractId(name));
  const inlined = inline(documents, target.node, target.base, new Set());
  if (inlined === null || typeof inlined !== 'object' || Array.isArray(inlined)) throw new VettedError('INTERNAL', `${name}${fragment} is not a schema object`);
  return inlined as Record<string, unknown>;
}

interface Located {
  node: Json;
  /** The document the node is in (its $id), against which its own relative references resolve. */
  base: string;
}

function resolve(documents: ReadonlyMap<string, Json>, ref: string, base: string): Located {
  const url = new URL(ref, base);
  const pointer = decodeURIComponent(url.hash.replace(/^#/, ''));
  url.hash = '';
  let node = documents.get(url.href);
  if (node === undefined) throw new VettedError('INTERNAL', `schema reference ${ref} (from ${base}) names no contract`);
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' && Object.hasOwn(node, key) ? (node as Record<string, Json>)[key] : undefined;
    if (node === undefined) throw new VettedError('INTERNAL', `schema reference ${ref} (from ${base}) points at nothing`);
  }
  return { node, base: url.href };
}

function inline(documents: ReadonlyMap<string, Json>, node: Json, base: string, active: ReadonlySet<string>): Json {
  if (Array.isArray(node)) return node.map((item) => inline(documents, item, base, active));
  if (node === null || typeof node !== 'object') return node;
  const record = node as Record<string, Json>;
  if (typeof record.$ref === 'string') {
    const key = new URL(record.$ref, base).href;
    if (active.has(key)) throw new VettedError('INTERNAL', `schema reference ${key} is recursive; it cannot be inlined`);
    const target = resolve(documents, record.$ref, base);
    // draft-07 ignores a $ref's siblings, so the target replaces the node whole.
    return inline(documents, target.node, target.base, new Set([...active, key]));
  }
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(record)) {
    if (DOCUMENT_KEYWORDS.has(key)) continue;
    out[key] = DATA_KEYWORDS.has(key) ? value : inline(documents, value, base, active);
  }
  return out;
}
