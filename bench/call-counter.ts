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
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    counts.pgQueries += 1;
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  const sendCommand = Redis.prototype.sendCommand as (...args: unknown[]) => unknown;
  Redis.prototype.sendCommand = function countedSendCommand(this: Redis, ...args: unknown[]) {
    counts.redisCommands += 1;
    return sendCommand.apply(this, args);
  } as typeof Redis.prototype.sendCommand;
}

export function callCounts(): CallCounts {
  return { ...counts };
}
