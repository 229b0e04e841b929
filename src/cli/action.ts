import type { Config } from '../config.ts';
import type { QueuedSystem, SystemOptions } from '../system.ts';
import { reportError } from './io.ts';
import { preflightPostgres } from './local-root.ts';

/** Wraps a command action: errors are printed for a person and become the exit code. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (error) {
      process.exitCode = reportError(error);
    }
  };
}

/**
 * Runs `fn` with a connected system and always closes it. Logs go to stderr: a one-shot command's stdout is
 * its answer (`ID=$(vetted enqueue …)` must capture the run id alone). A command never migrates: on a database
 * without the schema it fails saying to run `vetted migrate` (only that command, the API and the workers migrate).
 */
export async function withSystem<T>(fn: (system: QueuedSystem, config: Config) => Promise<T>, options: SystemOptions = {}): Promise<T> {
  // Loaded here, not at the top: `vetted --help` and a usage error never need the system (see src/cli/main.ts).
  const { loadConfig } = await import('../config.ts');
  const config = loadConfig();
  // One connection first, so an unreachable or missing database fails before the system's modules load.
  await preflightPostgres(config.databaseUrl);
  const { createSystem } = await import('../system.ts');
  const system = await createSystem(config, { logDestination: process.stderr, migrate: false, ...options });
  try {
    return await fn(system, config);
  } finally {
    await system.close();
  }
}

