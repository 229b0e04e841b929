/**
 * Connections to Redis, one server or a Redis Cluster, made from the target the configuration read
 * (src/redis-url.ts): the options BullMQ needs, and one client of either kind.
 */
import type { RedisOptions as BullRedisOptions } from 'bullmq';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisTarget } from '../redis-url.ts';

/** A Redis connection of either kind (the queues', a probe's). */
export type RedisClient = Redis | Cluster;

/**
 * ioredis options from a redis:// or rediss:// URL, with what BullMQ needs: workers block on Redis, so
 * requests must not fail after a fixed number of retries.
 */
export function redisOptionsFromUrl(redisUrl: string): BullRedisOptions {
  const url = new URL(redisUrl);
  const db = url.pathname.replace('/', '');
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 6379,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
  };
}

/**
 * A connection to the target. `options` are a single server's (ioredis RedisOptions); on a cluster they apply
 * to every node, except the ones that only make sense for the whole cluster (`lazyConnect`,
 * `enableOfflineQueue`, `retryStrategy`), which become the cluster's own.
 */
export function createRedisClient(target: RedisTarget, options: RedisOptions = {}): RedisClient {
  if (target.mode === 'standalone') return new Redis({ ...(redisOptionsFromUrl(target.url) as RedisOptions), ...options });
  const { lazyConnect, enableOfflineQueue, retryStrategy, ...perNode } = options;
  const cluster: ClusterOptions = {
    redisOptions: {
      ...(target.username ? { username: target.username } : {}),
      ...(target.password ? { password: target.password } : {}),
      ...(target.tls ? { tls: {} } : {}),
      // As on one server: BullMQ's blocking commands must wait out a failover, not give up after 20 tries.
      maxRetriesPerRequest: null,
      ...perNode,
    },
    enableReadyCheck: true,
    ...(lazyConnect === undefined ? {} : { lazyConnect }),
    ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
    ...('retryStrategy' in options ? { clusterRetryStrategy: (times: number) => retryStrategy?.(times) ?? null } : {}),
  };
  return new Cluster(target.nodes.map((node) => ({ host: node.host, port: node.port })), cluster);
}
