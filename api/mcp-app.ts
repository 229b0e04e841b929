/**
 * `vetted mcp --http`: a server for /mcp alone (the MCP tools over streamable HTTP), with the API's error
 * answers, JSON parsing, body limit, key check and per-key rate limit. `vetted api` serves the same route beside the rest.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { System } from '../src/system.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerJsonBody } from './plugins/json-body.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { clientErrorHandler, frameworkErrors, registerProblemDetails } from './plugins/problem-details.ts';
import { MCP_PATH, registerMcpRoutes } from './routes/mcp.ts';
import { LOOPBACK_HOSTS, registerMcpOriginGuard } from './plugins/mcp-origin.ts';

export interface RunningMcpServer {
  app: FastifyInstance;
  /** Where MCP clients connect: `<origin>/mcp`. */
  url: string;
  close(): Promise<void>;
}

export async function startMcpHttpServer(system: System, options: { host?: string; port?: number } = {}): Promise<RunningMcpServer> {
  const app: FastifyInstance = Fastify({
    loggerInstance: system.logger.child({ component: 'mcp-http' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: system.config.limits.bodyLimitBytes,
    // Only listed proxies may name the client (X-Forwarded-For); anyone else could spoof their address.
    trustProxy: system.config.trustProxy.length > 0 ? system.config.trustProxy : false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    frameworkErrors,
    clientErrorHandler,
  });
  registerProblemDetails(app);
  registerJsonBody(app);
  await registerRateLimit(app, system);
  // A local MCP server answers loopback names only unless told otherwise: the DNS rebinding default.
  registerMcpOriginGuard(app, MCP_PATH, { allowedOrigins: system.config.mcp.allowedOrigins, allowedHosts: system.config.mcp.allowedHosts ?? LOOPBACK_HOSTS });
  registerAuth(app, system);
  registerMcpRoutes(app, system);
  const origin = await app.listen({ host: options.host ?? system.config.host, port: options.port ?? system.config.port });
  return { app, url: `${origin}/mcp`, close: () => app.close() };
}
