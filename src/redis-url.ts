/**
 * Where Redis is: one server (`redis://`, `rediss://`) or a Redis Cluster (`redis+cluster://host:port,host:port`,
 * `rediss+cluster://` over TLS). Plain reading of REDIS_URL, with no driver: the configuration reads it once, the
 * queue (src/queue/redis-target.ts) makes the connections from what this returns.
 */
import { VettedError } from './errors.ts';

export interface RedisNode {
  host: string;
  port: number;
}

export type RedisTarget =
  | { mode: 'standalone'; url: string }
  | { mode: 'cluster'; nodes: readonly RedisNode[]; username?: string; password?: string; tls: boolean };

const CLUSTER_SCHEME = /^(rediss?)\+cluster:\/\//;

/**
 * Reads a REDIS_URL. The cluster form lists seed nodes (at least one; ioredis learns the rest from CLUSTER
 * SLOTS) and has no database number: a cluster has only database 0.
 * @throws VettedError CONFIG_INVALID naming `field` and what is wrong.
 */
export function parseRedisUrl(text: string, field = 'REDIS_URL'): RedisTarget {
  const invalid = (reason: string) => new VettedError('CONFIG_INVALID', `Environment variable ${field} ${reason}`, { field });
  const scheme = CLUSTER_SCHEME.exec(text);
  if (!scheme) return { mode: 'standalone', url: standaloneUrl(text, invalid) };
  const rest = text.slice(scheme[0].length);
  const at = rest.lastIndexOf('@');
  const credentials = at === -1 ? '' : rest.slice(0, at);
  const [hosts = '', path = ''] = rest.slice(at + 1).split(/\/(.*)/s);
  if (path !== '' && path !== '0') throw invalid(`names database "${path}": a Redis Cluster has only database 0; drop the path`);
  const nodes = hosts.split(',').map((entry) => clusterNode(entry, invalid));
  const [user = '', password] = credentials.split(/:(.*)/s);
  return {
    mode: 'cluster',
    nodes,
    ...(user ? { username: decodeURIComponent(user) } : {}),
    ...(password ? { password: decodeURIComponent(password) } : {}),
    tls: scheme[1] === 'rediss',
  };
}

function standaloneUrl(text: string, invalid: (reason: string) => VettedError): string {
  if (!URL.canParse(text)) throw invalid('is not a URL (redis://host:port[/db], or redis+cluster://host:port,host:port for a Redis Cluster)');
  const db = new URL(text).pathname.replace('/', '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) throw invalid(`names database "${db}", which is not a number`);
  return text;
}

function clusterNode(entry: string, invalid: (reason: string) => VettedError): RedisNode {
  // host:port, or [v6 address]:port
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry.trim());
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) {
    throw invalid(`has cluster node "${entry}", which is not host:port (redis+cluster://host:port,host:port,...)`);
  }
  return { host: (match[1] ?? '').replace(/^\[|\]$/g, ''), port };
}

/** The ports Redis listens on, to tell its refused sockets from another service's. */
export function redisPorts(target: RedisTarget): number[] {
  if (target.mode === 'cluster') return target.nodes.map((node) => node.port);
  return [Number(new URL(target.url).port || 6379)];
}
