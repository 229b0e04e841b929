/** `vetted mcp`: the MCP server, on stdio (for a client that starts it) or on streamable HTTP at /mcp. */
import type { Command } from 'commander';
import { VettedError } from '../../errors.ts';
import { action } from '../action.ts';
import { parseInteger } from '../option-parsers.ts';
import { listenError } from './api.ts';

interface McpOptions {
  apiKey?: string;
  http?: boolean;
  port?: string;
  host?: string;
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'Serve the MCP tools (review queue, decisions, replies, runs, review tasks). Default: stdio, acting with one API key ' +
        '(--api-key or VETTED_API_KEY). With --http: streamable HTTP at /mcp, each request with "Authorization: Bearer <key>", until SIGINT/SIGTERM',
    )
    .option('--api-key <key>', 'stdio: the API key to act with (prefer VETTED_API_KEY: a command line is visible to other users)')
    .option('--http', 'serve streamable HTTP at /mcp instead of stdio')
    .option('--port <port>', 'with --http: port to listen on (default PORT or 8080; 0 picks a free one)')
    .option('--host <host>', 'with --http: address to listen on (default HOST or 127.0.0.1)')
    .action(action((options: McpOptions) => (options.http ? serveHttp(options) : serveOnStdio(options))));
}

async function serveOnStdio(options: McpOptions): Promise<void> {
  if (options.port !== undefined || options.host !== undefined) throw new VettedError('INVALID_REQUEST', '--port and --host go with --http', { field: options.port !== undefined ? 'port' : 'host' });
  const [{ loadConfig }, { createSystem }, { serveStdio }] = await Promise.all([import('../../config.ts'), import('../../system.ts'), import('../../mcp/stdio.ts')]);
  const config = loadConfig();
  const apiKey = options.apiKey ?? config.apiKey;
  if (!apiKey) throw new VettedError('INVALID_REQUEST', 'give an API key: --api-key vt_… or VETTED_API_KEY (create one with `vetted keys create`)', { field: 'apiKey' });
  // stdout carries the protocol: every log line goes to stderr.
  const system = await createSystem(config, { logDestination: process.stderr, migrate: false });
  try {
    await serveStdio(system, apiKey);
  } finally {
    await system.close();
  }
}

async function serveHttp(options: McpOptions): Promise<void> {
  if (options.apiKey !== undefined) throw new VettedError('INVALID_REQUEST', '--api-key is for stdio; over HTTP every request sends its own key ("Authorization: Bearer <key>")', { field: 'apiKey' });
  const port = options.port === undefined ? undefined : parseInteger('--port', options.port, { min: 0, max: 65535 });
  const [{ loadConfig }, { createSystem }, { startMcpHttpServer }] = await Promise.all([import('../../config.ts'), import('../../system.ts'), import('../../../api/mcp-app.ts')]);
  const system = await createSystem(loadConfig(), { logDestination: process.stderr, migrate: false });
  const server = await startMcpHttpServer(system, { port, host: options.host }).catch(async (error: unknown) => {
    await system.close();
    throw listenError(error);
  });
  system.logger.info({ url: server.url }, `MCP server listening on ${server.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  await system.close();
}
