/**
 * Counts PostgreSQL queries (pg Client.query, which pool.query, drizzle and BEGIN/COMMIT all go through) and
 * Redis commands (ioredis sendCommand, which BullMQ uses, Lua scripts included) made by this process.
 * Installed in the driver and in each worker process, for both systems alike. The counts don't depend on
 * machine load, so they show how much work a request does more steadily than any timing.
 */
import { Redis } from 'ioredis';
import pg from 'pg';

export interface CallCounts {
  pgQueries: number;
  redisCommands: number;
}

const counts: CallCounts = { pgQueries: 0, redisCommands: 0 };
let installed = false;

export function installCallCounter(): void {
  if (installed) return;
  installed = true;
  countQueriesOf(pg.Client);
  const sendCommand = Redis.prototype.sendCommand as (...args: unknown[]) => unknown;
  Redis.prototype.sendCommand = function countedSendCommand(this: Redis, ...args: unknown[]) {
    counts.redisCommands += 1;
    return sendCommand.apply(this, args);
  } as typeof Redis.prototype.sendCommand;
}

/**
 * Counts the queries of a pg Client class. Vetted's pg is counted by installCallCounter; a peer system with
 * its own copy of pg (bench/peers/node_modules) passes its Client here so its queries count the same way.
 */
export function countQueriesOf(client: { prototype: object }): void {
  const prototype = client.prototype as { query: (...args: unknown[]) => unknown };
  const query = prototype.query;
  prototype.query = function countedQuery(this: unknown, ...args: unknown[]) {
    counts.pgQueries += 1;
    return query.apply(this, args);
  };
}

export function callCounts(): CallCounts {
  return { ...counts };
}
