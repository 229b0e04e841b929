/**
 * One connection to PostgreSQL before a command loads the system, so a command against an unreachable or missing
 * database fails in a fraction of a second instead of after loading BullMQ, drizzle and the rest. Light on
 * purpose: pg and the error texts only. createSystem checks everything else (Redis, the schema) as before.
 */
import pg from 'pg';
import { notMigrated, serviceUnavailable } from './backing-service-errors.ts';

/** Only for postgres:// URLs; any other kind of database is left to createSystem. */
export async function preflightPostgres(databaseUrl: string): Promise<void> {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    // 3D000: the database does not exist; `vetted migrate` creates it.
    if ((error as { code?: string }).code === '3D000') throw notMigrated(databaseUrl, 'the database does not exist');
    throw serviceUnavailable('PostgreSQL', databaseUrl, error);
  } finally {
    await client.end().catch(() => undefined);
  }
}
