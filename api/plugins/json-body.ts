/**
 * The JSON body parser: Fastify's default answers every refusal with one generic "not valid JSON", so a client
 * cannot tell a syntax slip from a refused key. This one says which: the parser's own message (with its
 * position), or the dotted path of a key that could rewrite object prototypes (`userProfile.__proto__`).
 * JSON.parse itself is safe (it makes `__proto__` an own property); such keys are refused so that no later
 * merge or spread can turn them into a prototype change.
 */
import type { FastifyInstance } from 'fastify';
import { VettedError } from '../../src/errors.ts';

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
    value = JSON.parse(text);
  } catch (error) {
    throw new VettedError('INVALID_JSON', `The body is not valid JSON: ${(error as Error).message}`, { field: 'body' });
  }
  const refused = prototypeKeyPath(value, '');
  if (refused !== undefined) {
    throw new VettedError('INVALID_REQUEST', `${refused}: keys that can rewrite object prototypes ("__proto__", "constructor" holding "prototype") are refused; rename or remove it`, { field: refused });
  }
  return value;
}

function prototypeKeyPath(value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const entries = Array.isArray(value) ? value.map((item, index) => [`${path}[${index}]`, item] as const) : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item] as const);
  if (!Array.isArray(value)) {
    if (Object.hasOwn(value, '__proto__')) return path ? `${path}.__proto__` : '__proto__';
    const ctor = Object.hasOwn(value, 'constructor') ? (value as Record<string, unknown>).constructor : undefined;
    if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) return path ? `${path}.constructor.prototype` : 'constructor.prototype';
  }
  for (const [childPath, item] of entries) {
    const found = prototypeKeyPath(item, childPath);
    if (found !== undefined) return found;
  }
  return undefined;
}
