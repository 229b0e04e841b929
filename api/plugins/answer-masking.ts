/**
 * The masking of every JSON answer (the preSerialization hook registered here) and of event streams: secrets
 * the pipeline stores to execute (a model's token input, signed URLs) never leave the server. Secret-role
 * inputs under ordinary names (`x-cog-secret`, `writeOnly`, `format: password`) are found from the runs the
 * answer names (maskAnswer), so a route cannot forget them; markSecretFields adds the runs a route holds. The
 * same pass hides who acted from callers that may not read reviews (src/auth/actor-view.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { actorsAsSeenBy } from '../../src/auth/actor-view.ts';
import { maskAnswer, secretFieldsOf } from '../../src/catalog/secret-fields.ts';
import type { System } from '../../src/system.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** Field names to mask in this answer (set by markSecretFields), or null. */
    secretFields: ReadonlySet<string> | null;
  }
}

export function registerSecretFields(app: FastifyInstance, system: System): void {
  app.decorateReply('secretFields', null);
  app.addHook('preSerialization', async (request, reply, payload) => maskedFor(system, request, payload, reply.secretFields ?? []));
}

/** A value as it may leave the server to this request's caller: secrets masked, and actors hidden from submitters. */
export async function maskedFor<T>(system: System, request: FastifyRequest, value: T, known: Iterable<string> = []): Promise<T> {
  const sources = { models: system.models, schemaKeysOfRuns: system.runQueries.schemaKeysOfRuns };
  return actorsAsSeenBy(await maskAnswer(value, sources, request.principal?.tenantId, [], known), request.principal);
}

/** Notes, on the reply, the secret-role inputs of the models these runs used (schemas are cached in-process). */
export async function markSecretFields(system: System, reply: FastifyReply, rows: readonly { schemaKey: string | null }[]): Promise<void> {
  const names = await secretFieldsOf(system.models, rows);
  if (names.size > 0) reply.secretFields = new Set([...(reply.secretFields ?? []), ...names]);
}
