/**
 * While Redis (or PostgreSQL) is away, every queue and worker sharing the outage reports an error on each
 * reconnect attempt: dozens of stack traces a second that bury the one useful line. This says it once per
 * source and interval, with how many were held back, and lets the first error after a quiet spell through
 * at once.
 */
import type { Logger } from './logger.ts';

/** How often one source may log a connection error. */
export const CONNECTION_ERROR_LOG_INTERVAL_MS = 10_000;

export type ConnectionErrorReporter = (source: string, error: unknown) => void;

export function connectionErrorReporter(logger: Logger, options: { intervalMs?: number; now?: () => number } = {}): ConnectionErrorReporter {
  const intervalMs = options.intervalMs ?? CONNECTION_ERROR_LOG_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const sources = new Map<string, { loggedAt: number; heldBack: number }>();
  return (source, error) => {
    const at = now();
    const seen = sources.get(source);
    if (seen && at - seen.loggedAt < intervalMs) {
      seen.heldBack += 1;
      return;
    }
    sources.set(source, { loggedAt: at, heldBack: 0 });
    const heldBack = seen?.heldBack ?? 0;
    const reason = error instanceof Error ? error.message : String(error);
    logger.error({ err: error, source, heldBack }, `${source}: ${reason}; retrying (at most one such line per ${intervalMs / 1000} s)`);
  };
}
