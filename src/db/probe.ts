/** Whether a PostgreSQL server answers at a URL: one try, on a connection of its own that never retries. */
import pg from 'pg';

const POSTGRES_TIMEOUT_MS = 3000;

/**
 * Connects to the server's maintenance database (the one named may not exist yet: it is created on first
 * use) and asks it one question.
 * @throws the connection's error when the server does not answer.
 */
export async function probePostgres(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: POSTGRES_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
