/**
 * What the simulated API servers share: a quiet Fastify instance bound to loopback (port 0 by default), and
 * reading the bearer token a request carries (recorded, so tests can prove which key an SDK really sent).
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';

export interface SimListenOptions {
  /** Default 127.0.0.1: the sims are for this machine only. */
  host?: string;
  /** Default 0: the OS picks a free port. */
  port?: number;
}

/**
 * A Fastify app that logs nothing and drops open connections on close (a slow answer must not block it).
 * Like the real APIs it accepts `Content-Type: application/json` with an empty body: the replicate SDK sends
 * exactly that to cancel a prediction.
 */
export function createSimApp(): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 16 * 1024 * 1024 });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('The body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });
  return app;
}

/** Starts listening; returns the origin, e.g. `http://127.0.0.1:41234`. */
export async function listen(app: FastifyInstance, options: SimListenOptions): Promise<string> {
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the sim server has no TCP address');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The bearer token of a request, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/** Resolves after `ms` (a slow answer). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
