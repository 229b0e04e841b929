/**
 * Which payload fields an answer must mask besides the secret-looking names maskForView knows: a model's
 * inputs whose role is `secret` (`x-cog-secret`, `writeOnly`, `format: password`) under any name. Routes that
 * return runs say which models' schemas apply (markSecretFields); the preSerialization hook in app.ts masks.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ModelSchema } from '../../src/generated/contracts.ts';
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

/** The names of a schema's secret-role inputs. */
export function secretFieldNames(schema: ModelSchema | undefined): string[] {
  return (schema?.fields ?? []).filter((field) => field.role === 'secret').map((field) => field.name);
}

/** Notes, on the reply, the secret-role inputs of the models these runs used (schemas are cached in-process). */
export async function markSecretFields(system: System, reply: FastifyReply, rows: readonly { schemaKey: string | null }[]): Promise<void> {
  const keys = [...new Set(rows.map((row) => row.schemaKey).filter((key): key is string => key !== null))];
  const schemas = await Promise.all(keys.map((key) => system.models.getSchema(key)));
  const names = schemas.flatMap(secretFieldNames);
  if (names.length > 0) reply.secretFields = new Set([...(reply.secretFields ?? []), ...names]);
}
