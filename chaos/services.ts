/**
 * A private Redis and a private PostgreSQL cluster for one chaos run, in a temporary directory, on free
 * loopback ports. The machine's shared servers (6379, 5432) are never touched: restarting "Redis" here kills
 * our own child process (it keeps nothing, so its data is gone), and restarting "PostgreSQL" stops our own
 * cluster with pg_ctl.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { CappedFile } from './footprint.ts';
import { log, sleep, waitUntil } from './log.ts';

const run = promisify(execFile);

/** A port the OS says is free right now (it is released before we use it; good enough on loopback). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Sends PING over a raw socket: true on +PONG. No client library, so no reconnect logic hides a dead server. */
function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export class PrivateRedis {
  private child: ChildProcess | undefined;
  restarts = 0;

  constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly options: { logCapBytes: number; onStart?: (pid: number | undefined) => void },
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    // No RDB, no AOF: a restart is a Redis that lost everything, the worst case the product must survive.
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', this.dir];
    const out = new CappedFile(path.join(this.dir, 'redis.log'), this.options.logCapBytes);
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => out.write(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => out.write(chunk.toString()));
    this.child = child;
    this.options.onStart?.(child.pid);
    if (!(await waitUntil(() => redisPing(this.port), 10_000, 100))) throw new Error(`private redis-server did not answer on port ${this.port} (see ${this.dir}/redis.log)`);
  }

  /** kill -9 and start again on the same port: every key is gone. */
  async restart(downMs: number): Promise<void> {
    await this.stop('SIGKILL');
    await sleep(downMs);
    await this.start();
    this.restarts += 1;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await Promise.race([exited, sleep(5000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Where this machine's PostgreSQL binaries are: PG_BIN, the newest /usr/lib/postgresql/<v>/bin, or PATH. */
function postgresBinDir(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, 'bin')).find((dir) => existsSync(path.join(dir, 'pg_ctl')));
}

export class PrivatePostgres {
  private readonly bin: (name: string) => string;
  private readonly dataDir: string;
  private readonly socketDir: string;
  private readonly logFile: string;
  restarts = 0;

  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {
    const binDir = postgresBinDir();
    this.bin = (name) => (binDir ? path.join(binDir, name) : name);
    this.dataDir = path.join(dir, 'data');
    this.socketDir = path.join(dir, 'sock');
    this.logFile = path.join(dir, 'postgres.log');
  }

  /** Where the cluster keeps its data (its postmaster.pid names the server). */
  get dataDirectory(): string {
    return this.dataDir;
  }

  /** The database Vetted uses; `vetted migrate` creates it. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/vetted`;
  }

  /**
   * initdb refuses to run as root, so as root everything runs as the `postgres` OS user (runuser), which
   * must own the directory. Trust auth on loopback only; fsync off because nothing here must survive the
   * machine crashing, only the server process being killed (the OS still has the data).
   */
  async init(): Promise<void> {
    mkdirSync(this.socketDir, { recursive: true });
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      for (const dir of [this.dir, this.socketDir]) chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
      // A parent made by mkdtemp (mode 0700) stops the postgres user short of its own directory; say so plainly.
      await run('runuser', ['-u', 'postgres', '--', 'test', '-x', this.dir]).catch(() => {
        throw new Error(`the postgres OS user cannot reach ${this.dir}: every directory above it must be searchable by others (chmod o+x), or point --tmp-dir elsewhere`);
      });
    }
    await this.asPostgres(this.bin('initdb'), ['-D', this.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-locale', '-E', 'UTF8']);
  }

  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`, `-k ${this.socketDir}`, '-c listen_addresses=127.0.0.1',
      '-c fsync=off', '-c max_connections=300', '-c shared_buffers=64MB',
    ].join(' ');
    await this.asPostgres(this.bin('pg_ctl'), ['-D', this.dataDir, '-o', options, '-l', this.logFile, '-w', '-t', '60', 'start']);
  }

  /** `immediate` is a crash (recovery from WAL at start); `fast` disconnects everyone and shuts down cleanly. */
  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    await this.asPostgres(this.bin('pg_ctl'), ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  async restart(mode: 'fast' | 'immediate', downMs: number): Promise<void> {
    await this.stop(mode);
    await sleep(downMs);
    await this.start();
    this.restarts += 1;
  }

  /** For the final cleanup: stop if running, say nothing if it is not. */
  async stopQuietly(): Promise<void> {
    if (!existsSync(path.join(this.dataDir, 'postmaster.pid'))) return;
    await this.stop('fast').catch(() => this.stop('immediate').catch((error: unknown) => log(`could not stop the private PostgreSQL: ${String(error)}`)));
  }

  private async asPostgres(command: string, args: string[]): Promise<void> {
    const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    try {
      await run(file, argv, { timeout: 90_000 });
    } catch (error) {
      const detail = (error as { stderr?: string }).stderr?.trim() ?? String(error);
      throw new Error(`${path.basename(command)} ${args.at(-1) ?? ''} failed: ${detail} (log: ${this.logFile})`);
    }
  }
}
