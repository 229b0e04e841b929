/** Starts the API on a port and closes it gracefully: in-flight requests finish, then connections close. */
import type { FastifyInstance } from 'fastify';
import type { System } from '../src/system.ts';
import { buildApp, type AppOptions } from './app.ts';

export interface RunningApi {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(system: System, options: AppOptions & { host?: string; port?: number } = {}): Promise<RunningApi> {
  const app = await buildApp(system, options);
  const url = await app.listen({ host: options.host ?? system.config.host, port: options.port ?? system.config.port });
  return { app, url, close: () => app.close() };
}
