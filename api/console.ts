/**
 * The reviewer console (console/, built by Vite into console/dist) served by the API itself at /console, so a
 * reviewer needs no second server and the console calls the same API, with the same keys, roles and tenant
 * rules, from the same origin. Built assets are content-hashed and cached for good; index.html is never
 * cached, and every path under /console that is not a file is the app (client-side routes such as
 * /console/runs/<id>). Without a build, /console answers a problem that says how to build it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { VettedError } from '../src/errors.ts';
import { fromPackageRoot } from '../src/util/package-root.ts';

/** Where `npm run console:build` writes the console. */
export const CONSOLE_DIST = fromPackageRoot('console', 'dist');

/**
 * Images and media only from this origin and the media hosts in config (VETTED_MEDIA_HOSTS, the hosts the
 * console previews inline): an attachment naming an intranet address is never fetched by a reviewer's browser,
 * whatever the console renders. Everything else only from this origin. No inline scripts; inline styles for the
 * form library's widgets.
 */
export function contentSecurityPolicy(mediaHosts: readonly string[]): string {
  const hosts = mediaHosts.flatMap((host) => [`https://${host}`, `http://${host}`]).join(' ');
  const media = (base: string) => (hosts ? `${base} ${hosts}` : base);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    media("img-src 'self' data: blob:"),
    media("media-src 'self' blob:"),
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

function secureHeaders(policy: string, set: (name: string, value: string) => unknown): void {
  const headers = { 'content-security-policy': policy, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  for (const [name, value] of Object.entries(headers)) set(name, value);
}

export async function registerConsole(app: FastifyInstance, root = CONSOLE_DIST, mediaHosts: readonly string[] = []): Promise<void> {
  const policy = contentSecurityPolicy(mediaHosts);
  if (!existsSync(path.join(root, 'index.html'))) {
    const notBuilt = async () => {
      throw new VettedError('CONSOLE_NOT_BUILT', `The reviewer console is not built (no ${path.join(root, 'index.html')}). Run \`npm run console:build\` (npm ci runs it).`);
    };
    app.get('/console', { schema: { hide: true } }, notBuilt);
    app.get('/console/*', { schema: { hide: true } }, notBuilt);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/console/',
    // Routes for the files that exist at start-up; every other /console path is the app (below).
    wildcard: false,
    redirect: true,
    index: 'index.html',
    schemaHide: true,
    // Cache headers are ours (setHeaders): hashed assets for good, everything else revalidated.
    cacheControl: false,
    setHeaders(response, file) {
      secureHeaders(policy, (name, value) => response.setHeader(name, value));
      response.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/console/*', { schema: { hide: true } }, async (_request, reply) => {
    secureHeaders(policy, (name, value) => reply.header(name, value));
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  });
}
