/**
 * The command line's light composition root: the drivers a command needs without a whole system (the adapters
 * for the in-process commands, the PostgreSQL preflight before one). Each is loaded only when a command asks for
 * it, so `vetted --help` and a usage error still load none of them; src/system.ts is the heavy root, loaded by
 * the commands that need PostgreSQL and Redis (action.ts, withSystem).
 */
import type { Config } from '../config.ts';
import type { ModelSchema } from '../generated/contracts.ts';
import type { AdapterRegistry } from '../ports.ts';

/** The builders, providers and helpers the configuration names (src/adapters/registry.ts). */
export async function loadAdapters(config: Readonly<Config>): Promise<AdapterRegistry> {
  return (await import('../adapters/registry.ts')).createAdapterRegistry(config);
}

/** The OpenAI strict schema the openai builder sends for a model, and the rules AJV still enforces after it. */
export async function loadStrictReport(modelSchema: ModelSchema): Promise<unknown> {
  return (await import('../adapters/openai/strict-schema.ts')).strictReport(modelSchema);
}

/** One connection to PostgreSQL, so an unreachable or missing database fails before the system's modules load. */
export async function preflightPostgres(databaseUrl: string): Promise<void> {
  await (await import('../db/preflight.ts')).preflightPostgres(databaseUrl);
}
