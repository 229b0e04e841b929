/**
 * The errors for a database or Redis that cannot be used, with what to do about it. Apart from client.ts (which
 * loads drizzle) so a command can report an unreachable PostgreSQL before loading anything heavy.
 */
import { VettedError } from '../errors.ts';
import { redactUrlPassword } from '../util/redact-url.ts';

export { redactUrlPassword };

/** A clear error for an unreachable backing service: what failed, where, and what to do next. */
export function serviceUnavailable(service: 'PostgreSQL' | 'Redis', url: string, cause: unknown): VettedError {
  const safeUrl = redactUrlPassword(url);
  const hint =
    service === 'PostgreSQL'
      ? 'start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start, or docker compose up -d postgres) or set DATABASE_URL'
      : 'start it (redis-server --daemonize yes, or docker compose up -d redis) or set REDIS_URL';
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new VettedError('SERVICE_UNAVAILABLE', `${service} is not reachable at ${safeUrl} (${reason}): ${hint}`, { cause });
}

/** The schema is missing or older than this build: only `vetted migrate`, the API and the workers apply it. */
export function notMigrated(databaseUrl: string, reason: string): VettedError {
  return new VettedError('SERVICE_UNAVAILABLE', `PostgreSQL at ${redactUrlPassword(databaseUrl)} is not ready for this build (${reason}): run \`vetted migrate\` (the API and the workers also migrate when they start).`, {
    details: { reason: 'not_migrated' },
  });
}
