/** MCP clients for integration tests: the SDK's own Client, over streamable HTTP or over stdio (a `vetted mcp` process). */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { System } from '../../src/system.ts';

export const BIN = path.resolve('bin/vetted.mjs');

export interface ToolAnswer {
  isError: boolean;
  /** structuredContent, checked to be the same object as the JSON text beside it. */
  body: Record<string, unknown> & { status: string };
}

export interface McpTestClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

function wrap(client: Client): McpTestClient {
  return {
    client,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? 'null';
      const body = result.structuredContent as ToolAnswer['body'];
      if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(body)) throw new Error(`${name}: the JSON text and structuredContent differ`);
      return { isError: result.isError === true, body };
    },
    close: () => client.close(),
  };
}

export async function connectHttp(url: string, key: string | undefined): Promise<McpTestClient> {
  const client = new Client({ name: 'vetted-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : {});
  await client.connect(transport);
  // listTools caches each tool's outputSchema, against which the client then checks every result.
  await client.listTools();
  return wrap(client);
}

/** The environment a `vetted` process needs to reach this test system's database and queues. */
export function processEnv(system: System, extra: Record<string, string> = {}): Record<string, string> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { ...inherited, DATABASE_URL: system.config.databaseUrl, REDIS_URL: system.config.redisUrl, VETTED_QUEUE_PREFIX: system.config.queuePrefix, LOG_LEVEL: 'warn', ...extra };
}

/** Spawns `node bin/vetted.mjs mcp` with the key in VETTED_API_KEY; stderr is kept for the test to read. */
export async function connectStdio(system: System, key: string): Promise<McpTestClient & { stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: processEnv(system, { VETTED_API_KEY: key }), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'vetted-test', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { ...wrap(client), stderr: () => stderr };
}
