/**
 * The masking of every JSON answer (the preSerialization hook registered here) and of event streams: secrets
 * the pipeline stores to execute (a model's token input, signed URLs) never leave the server. Secret-role
 * inputs under ordinary names (`x-cog-secret`, `writeOnly`, `format: password`) are found from the runs the
 * answer names (maskAnswer), so a route cannot forget them; markSecretFields hands over the runs a route
 * already holds, which are then not read again. The same pass hides who acted from callers that may not read
 * reviews (src/auth/actor-view.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { actorsAsSeenBy } from '../../src/auth/actor-view.ts';
import { maskAnswer, type HeldRun } from '../../src/catalog/secret-fields.ts';
import type { System } from '../../src/system.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** The runs this answer shows that the route already read (set by markSecretFields), or null. */
    heldRuns: HeldRun[] | null;
  }
}

export function registerSecretFields(app: FastifyInstance, system: System): void {
  app.decorateReply('heldRuns', null);
  app.addHook('preSerialization', async (request, reply, payload) => maskedFor(system, request, payload, reply.heldRuns ?? []));
}

/** A value as it may leave the server to this request's caller: secrets masked, and actors hidden from submitters. */
export async function maskedFor<T>(system: System, request: FastifyRequest, value: T, held: readonly HeldRun[] = []): Promise<T> {
  const sources = { models: system.models, schemaKeysOfRuns: system.runQueries.schemaKeysOfRuns };
  return actorsAsSeenBy(await maskAnswer(value, sources, request.principal?.tenantId, held), request.principal);
}

/** Notes, on the reply, the runs the answer shows that the route holds: their models' secret inputs are masked from these rows. */
export function markSecretFields(reply: FastifyReply, rows: readonly { id: string; schemaKey: string | null }[]): void {
  const held = rows.map(({ id, schemaKey }) => ({ id, schemaKey }));
  reply.heldRuns = reply.heldRuns ? [...reply.heldRuns, ...held] : held;
}
