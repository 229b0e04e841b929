/**
 * DNS rebinding guard for /mcp, as the MCP specification asks of streamable HTTP servers: a web page on
 * evil.example can make its own name resolve to 127.0.0.1 and then POST to a local MCP server as if it were
 * same-origin. Such a request carries `Origin: http://evil.example` and `Host: evil.example`, so both are checked
 * before the key is: an `Origin` must be a loopback origin or one listed in VETTED_MCP_ALLOWED_ORIGINS, and the
 * `Host` must be a listed name (VETTED_MCP_ALLOWED_HOSTS; `vetted mcp --http` defaults to loopback names only).
 * Requests without an `Origin` (MCP clients that are not browsers) pass the origin check.
 */
import type { FastifyInstance } from 'fastify';
import { VettedError } from '../../src/errors.ts';

export interface McpOriginRules {
  /** Origins accepted besides loopback ones (`https://agent.example`). */
  allowedOrigins: readonly string[];
  /** Host names accepted in `Host`; undefined accepts any (the API behind its public names checks Origin only). */
  allowedHosts: readonly string[] | undefined;
}

export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of a `Host` header, without the port, lower-cased (`[::1]:8090` → `[::1]`). */
export function hostNameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':')[0] ?? '';
}

/** Why the request is refused, naming the header, or undefined when it may go on. */
export function mcpOriginRefusal(headers: { origin?: string; host?: string }, rules: McpOriginRules): { field: string; reason: string } | undefined {
  if (headers.origin !== undefined && !originAllowed(headers.origin, rules.allowedOrigins)) {
    return { field: 'headers.origin', reason: `Origin ${JSON.stringify(headers.origin.slice(0, 200))} may not call /mcp: only loopback origins and VETTED_MCP_ALLOWED_ORIGINS may` };
  }
  if (rules.allowedHosts && !rules.allowedHosts.includes(hostNameOf(headers.host ?? ''))) {
    return { field: 'headers.host', reason: `Host ${JSON.stringify((headers.host ?? '').slice(0, 200))} is not served here: /mcp answers ${rules.allowedHosts.join(', ')} (VETTED_MCP_ALLOWED_HOSTS)` };
  }
  return undefined;
}

function originAllowed(origin: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === 'null') return false;
  return allowed.includes(url.origin) || LOOPBACK_HOSTS.includes(url.hostname);
}

/** Refuses, with a 403 problem, requests to `path` that fail {@link mcpOriginRefusal}. Register before auth. */
export function registerMcpOriginGuard(app: FastifyInstance, path: string, rules: McpOriginRules): void {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url !== path) return;
    const origin = request.headers.origin;
    const refusal = mcpOriginRefusal({ origin: Array.isArray(origin) ? origin[0] : origin, host: request.headers.host }, rules);
    if (refusal) throw new VettedError('FORBIDDEN', refusal.reason, { field: refusal.field });
  });
}
