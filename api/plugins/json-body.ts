/**
 * The JSON body parser: Fastify's default answers every refusal with one generic "not valid JSON", so a client
 * cannot tell a syntax slip from a refused key. This one says which: the parser's own message (with its
 * position), or the dotted path of a key that could rewrite object prototypes (`userProfile.__proto__`).
 * JSON.parse itself is safe (it makes `__proto__` an own property); such keys are refused so that no later
 * merge or spread can turn them into a prototype change.
 */
import type { FastifyInstance } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import { findPrototypeKey } from '../../src/util/json-walk.ts';

export function registerJsonBody(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/** @throws VettedError INVALID_JSON (field `body`) or INVALID_REQUEST naming the refused key. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new VettedError('INVALID_JSON', 'The body is empty; send a JSON object', { field: 'body' });
  let value: unknown;
  try {
    // A leading byte-order mark is not JSON, but editors write it and Fastify's own parser accepts it.
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new VettedError('INVALID_JSON', `The body is not valid JSON: ${(error as Error).message}`, { field: 'body' });
  }
  const found = findPrototypeKey(value);
  // A path 60,000 levels deep says nothing more than its end.
  const refused = found !== undefined && found.length > 200 ? `…${found.slice(-200)}` : found;
  if (refused !== undefined) {
    throw new VettedError('INVALID_REQUEST', `${refused}: keys that can rewrite object prototypes ("__proto__", "constructor" holding "prototype") are refused; rename or remove it`, { field: refused });
  }
  return value;
}
