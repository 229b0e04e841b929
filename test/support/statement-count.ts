/**
 * The SQL statements one piece of work sends, whichever store it reaches (a PostgreSQL server or the embedded
 * one: both go through pg's Client, as drizzle, the pool and BEGIN/COMMIT do), counted the way the bench counts
 * them (bench/call-counter.ts): Client.prototype.query is wrapped once per process. Each statement is kept
 * under the async context it was sent from, so only the work started inside `during` counts, also what it
 * leaves running after it returns (a fire-and-forget read); workers and timers of the same process never do.
 *
 * A statement sent while every pool connection is taken could be sent later from another context (pg's pool
 * hands the waiting query to whichever release frees a connection): count on a pool that is not full.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

export interface StatementLog {
  /** Each statement's prepared name, or its first words, in the order sent. */
  readonly statements: string[];
  /** Runs `work` with every statement it sends logged here. */
  during<T>(work: () => Promise<T>): Promise<T>;
}

const scope = new AsyncLocalStorage<string[]>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = prototype.query;
  prototype.query = function loggedQuery(this: unknown, ...args: unknown[]) {
    scope.getStore()?.push(describe(args[0]));
    return query.apply(this, args);
  };
}

function describe(config: unknown): string {
  if (typeof config === 'string') return config.replace(/\s+/g, ' ').trim().slice(0, 60);
  const { name, text } = (config ?? {}) as { name?: string; text?: string };
  return name ?? describe(text ?? '');
}

export function statementLog(): StatementLog {
  install();
  const statements: string[] = [];
  return { statements, during: (work) => scope.run(statements, work) };
}
