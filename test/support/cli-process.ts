/** The `vetted` command as a child process, the way a user runs it: its exit code and everything it printed. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

export const VETTED_BIN = path.resolve('bin/vetted.mjs');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What `child` printed, once it has exited. */
export function finished(child: ChildProcessWithoutNullStreams): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** `vetted <args>` with `home` as HOME and no API key from the caller's environment unless `env` gives one. */
export function runCli(home: string, args: string[], env: Record<string, string> = {}): Promise<Finished> {
  return finished(spawn('node', [VETTED_BIN, ...args], { env: { ...process.env, HOME: home, LOG_LEVEL: 'warn', VETTED_API_KEY: '', ...env } }));
}
