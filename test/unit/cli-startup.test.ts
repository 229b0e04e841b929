/**
 * `vetted --help` and a usage error answer without loading what commands run (the system, AJV, BullMQ, Fastify,
 * drizzle, pg): each command imports those inside its action. Observed in a real node process through a module
 * resolve hook, on the compiled dist/ that bin/vetted.mjs runs. (How fast that is goes in `npm run bench`.)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STAGE_NAMES } from '../../src/engine/stages.ts';
import { WORK_KINDS } from '../../workers/work-kinds.ts';

const ROOT = path.resolve('.');
const HEAVY = ['bullmq', 'ioredis', 'fastify', 'drizzle-orm', 'pg', 'ajv', 're2-wasm', 'openai', '@modelcontextprotocol/sdk', '@opentelemetry/api', 'src/system.js', 'src/config.js'];

/** The modules a `vetted <args>` process resolves, as paths relative to the checkout. */
function modulesLoadedBy(args: string[], env: NodeJS.ProcessEnv = {}): string[] {
  if (!existsSync(path.join(ROOT, 'dist/src/cli/main.js'))) throw new Error('dist/ is not built: run `npm run build` (scripts/test.sh does)');
  const dir = mkdtempSync(path.join(tmpdir(), 'vetted-loads-'));
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(hooks, "export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write(`LOADED ${r.url}\\n`); return r; }\n");
  const register = path.join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, 'bin/vetted.mjs', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED file://'))
    .map((line) => path.relative(ROOT, new URL(line.slice('LOADED '.length)).pathname));
}

const loadsPackage = (loaded: string[], name: string) => loaded.some((file) => file.includes(`node_modules/${name}/`) || file.endsWith(`dist/${name}`));

describe('CLI start-up', () => {
  it.each([[['--help']], [['runs', '--help']], [['worker', '--help']], [['no-such-command']], [['runs', '--limit']]])('`vetted %j` loads commander and the command table, nothing heavy', (args) => {
    const loaded = modulesLoadedBy(args);
    expect(loaded).toContain('dist/src/cli/main.js');
    expect(loadsPackage(loaded, 'commander')).toBe(true);
    expect(HEAVY.filter((name) => loadsPackage(loaded, name))).toEqual([]);
  });

  it('a command loads what it runs only when it runs: `vetted runs` against an unreachable PostgreSQL stops before the system', () => {
    const loaded = modulesLoadedBy(['runs'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/vetted' });
    expect(loadsPackage(loaded, 'pg')).toBe(true);
    expect(loadsPackage(loaded, 'src/config.js')).toBe(true);
    expect(['bullmq', 'fastify', 'drizzle-orm', 'src/system.js', 're2-wasm'].filter((name) => loadsPackage(loaded, name))).toEqual([]);
  });

  it('the help still lists what the commands take (the stages, the environment)', () => {
    const help = execFileSync(process.execPath, ['bin/vetted.mjs', 'worker', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(help).toContain(WORK_KINDS.join(','));
    expect(execFileSync(process.execPath, ['bin/vetted.mjs', '--help'], { cwd: ROOT, encoding: 'utf8' })).toMatch(/Environment:[\s\S]*DATABASE_URL/);
  });

  it("the worker kinds (kept apart from start-workers.ts for the help) begin with the stage table's stages, in order", () => {
    expect(WORK_KINDS.slice(0, STAGE_NAMES.length)).toEqual([...STAGE_NAMES]);
  });
});
