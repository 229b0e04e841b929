/**
 * Which payload fields an answer must mask besides the secret-looking names maskForView knows: a model's
 * inputs whose role is `secret` (`x-cog-secret`, `writeOnly`, `format: password`) under any name. Routes that
 * return runs say which models' schemas apply (markSecretFields); the preSerialization hook in app.ts masks.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { secretFieldsOf } from '../../src/catalog/secret-fields.ts';
import type { System } from '../../src/system.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** Field names to mask in this answer (set by markSecretFields), or null. */
    secretFields: ReadonlySet<string> | null;
  }
}

export function registerSecretFields(app: FastifyInstance): void {
  app.decorateReply('secretFields', null);
}

/** Notes, on the reply, the secret-role inputs of the models these runs used (schemas are cached in-process). */
export async function markSecretFields(system: System, reply: FastifyReply, rows: readonly { schemaKey: string | null }[]): Promise<void> {
  const names = await secretFieldsOf(system.models, rows);
  if (names.size > 0) reply.secretFields = new Set([...(reply.secretFields ?? []), ...names]);
}
