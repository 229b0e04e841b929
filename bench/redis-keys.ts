/**
 * Looking at the Redis keys under a prefix without blocking the server: SCAN (never KEYS), then
 * MEMORY USAGE per key. Used to measure what parked runs leave behind and to delete the bench's keys.
 */
import type { Redis } from 'ioredis';

export interface KeyUsage {
  key: string;
  bytes: number;
}

export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

/**
 * Bytes each key takes, as Redis counts them. SAMPLES 0 makes Redis walk every element of a hash, zset or
 * stream instead of estimating from five, which is what a per-run figure needs.
 */
export async function keyUsage(redis: Redis, pattern: string): Promise<KeyUsage[]> {
  const keys = await scanKeys(redis, pattern);
  const usage: KeyUsage[] = [];
  for (let start = 0; start < keys.length; start += 500) {
    const batch = keys.slice(start, start + 500);
    const pipeline = redis.pipeline();
    for (const key of batch) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
    const replies = (await pipeline.exec()) ?? [];
    batch.forEach((key, index) => {
      const reply = replies[index];
      // A key that expired or was deleted between SCAN and MEMORY USAGE answers null: it takes nothing.
      usage.push({ key, bytes: reply && !reply[0] && typeof reply[1] === 'number' ? reply[1] : 0 });
    });
  }
  return usage;
}

export async function deleteKeys(redis: Redis, pattern: string): Promise<number> {
  const keys = await scanKeys(redis, pattern);
  for (let start = 0; start < keys.length; start += 500) await redis.unlink(...keys.slice(start, start + 500));
  return keys.length;
}
