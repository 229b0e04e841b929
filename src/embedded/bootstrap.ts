/**
 * A first start of `vetted api --embedded`: the store is new, and no other process can add keys or models
 * to it while the API holds it (PGlite is one process). So the API does the two things a user needs first:
 * registers the model files it is given, and, when the store has no API key at all, creates an admin key and
 * says it once.
 */
import { registerModel } from '../catalog/model-catalog.ts';
import type { System } from '../system.ts';

export interface BootstrapInput {
  tenantId: string;
  /** Model files already read (JSON), with the path they came from for the message. */
  models: readonly { file: string; source: unknown }[];
}

/** @returns the lines to tell the user (models registered, the new key). */
export async function bootstrapEmbedded(system: System, input: BootstrapInput): Promise<string[]> {
  const lines: string[] = [];
  for (const { file, source } of input.models) {
    const registered = await registerModel(system, { tenantId: input.tenantId, source });
    lines.push(`model ${registered.refs[0]} registered for tenant ${input.tenantId} (${file})`);
  }
  if ((await system.apiKeys.list()).length === 0) {
    const { key } = await system.apiKeys.create({ tenantId: input.tenantId, role: 'admin', label: 'embedded first start' });
    lines.push(`no API key yet: created an admin key for tenant ${input.tenantId} (shown once, keep it): ${key}`);
  }
  return lines;
}
