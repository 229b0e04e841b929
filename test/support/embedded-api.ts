/**
 * `vetted api --embedded --data-dir <dir>` as a child process, the way a user starts it beside the CLI: where it
 * listens and the admin key it prints when it creates the store. It gets no PostgreSQL or Redis, so a command that
 * works proves it went through the API.
 */
import { spawn } from 'node:child_process';
import { VETTED_BIN } from './cli-process.ts';
import { eventually } from './test-system.ts';

export interface EmbeddedApi {
  url: string;
  /** The admin key the API printed when it created the store. */
  adminKey: string;
  /** SIGTERM, and wait for the process to be gone. */
  stop(): Promise<void>;
}

/** Starts the API with `home` as HOME and waits (up to two minutes) until it listens; stopped again if it never does. */
export async function startEmbeddedApi(home: string, dataDir: string): Promise<EmbeddedApi> {
  const api = spawn('node', [VETTED_BIN, 'api', '--embedded', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, HOME: home, LOG_LEVEL: 'info', DATABASE_URL: 'postgres://127.0.0.1:1/nowhere', REDIS_URL: 'redis://127.0.0.1:1' },
  });
  let output = '';
  api.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  api.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const closed = new Promise((resolve) => api.on('close', resolve));
  const stop = async () => {
    api.kill('SIGTERM');
    await closed;
  };
  try {
    const url = await eventually(async () => /API listening on (http:\/\/\S+) /.exec(output)?.[1], 120_000, 'the API to listen');
    const adminKey = /keep it\): (\S+)/.exec(output)?.[1];
    if (!adminKey) throw new Error(`the API printed no admin key:\n${output}`);
    return { url, adminKey, stop };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
  }
}
