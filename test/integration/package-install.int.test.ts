/**
 * The package as a user gets it: `npm pack`, `npm install <tarball>` into an empty directory, then `npx vetted
 * demo` and `npx vetted dry-run` from there, against this file's own database and BullMQ prefix. Nothing of the
 * checkout is on the path: the installed package must carry its compiled code, migrations, schemas, sample models
 * and console, and run without tsx or any other development dependency.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, databaseUrl } from '../support/databases.ts';
import { deleteRedisPrefix } from '../support/test-system.ts';

const exec = promisify(execFile);
const ROOT = path.resolve('.');
const NPM = 'npm';
const name = `vt_${Math.floor(Date.now() / 1000)}_${Math.random().toString(36).slice(2, 10)}`;
const prefix = `vt-${name.slice(3)}`;
let work: string;
let app: string;

interface PackedFile {
  path: string;
}

/** `npm pack --dry-run --json`: what the tarball would hold. */
async function packedFiles(): Promise<string[]> {
  const { stdout } = await exec(NPM, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(stdout) as { files: PackedFile[] }[])[0]!.files.map((file) => file.path);
}

/**
 * An app that depends on the tarball. The package's direct dependencies are pinned to the versions this checkout's
 * lockfile resolved (an installed package brings no lockfile of its own), and its overrides are carried over.
 */
function writeApp(tarball: string): void {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; overrides?: Record<string, string> };
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  const pinned = Object.fromEntries(Object.keys(manifest.dependencies).map((dep) => [dep, lock.packages[`node_modules/${dep}`]!.version!]));
  const pkg = { name: 'vetted-install-check', private: true, type: 'module', dependencies: { vetted: `file:${tarball}` }, overrides: { ...pinned, ...manifest.overrides } };
  writeFileSync(path.join(app, 'package.json'), JSON.stringify(pkg, null, 2));
}

async function npx(args: string[], timeout = 180_000): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: databaseUrl(name), VETTED_QUEUE_PREFIX: prefix, LOG_LEVEL: 'warn', NODE_OPTIONS: '' };
  try {
    const { stdout, stderr } = await exec('npx', ['--no-install', 'vetted', ...args], { cwd: app, env, timeout, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'dist/src/cli/main.js')) || !existsSync(path.join(ROOT, 'console/dist/index.html'))) {
    throw new Error('dist/ or console/dist/ is not built: run `npm run build && npm run console:build` (scripts/test.sh does)');
  }
  work = mkdtempSync(path.join(tmpdir(), 'vetted-pack-'));
  app = path.join(work, 'app');
  // Packed from what is built (the build is scripts/test.sh's, as `prepare` would do it for a real `npm pack`).
  const { stdout } = await exec(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const tarball = path.join(work, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  await exec('mkdir', ['-p', app]);
  writeApp(tarball);
  // The registry is reachable but slow under load: the npm cache (filled by `npm ci`) serves what it can.
  await exec(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: app, timeout: 540_000, maxBuffer: 64 * 1024 * 1024 });
}, 600_000);

afterAll(async () => {
  if (work) rmSync(work, { recursive: true, force: true });
  await dropTestDatabase(name);
  await deleteRedisPrefix(prefix);
});

describe('npm pack', () => {
  it('ships the compiled code, declarations and runtime files, and no development file', async () => {
    const files = await packedFiles();
    for (const needed of [
      'bin/vetted.mjs',
      'dist/src/cli/main.js',
      'dist/src/cli/main.js.map',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/api/server.js',
      'dist/workers/start-workers.js',
      'drizzle/meta/_journal.json',
      'schemas/generation-request.schema.json',
      'examples/models/flux-schnell.model.json',
      'src/review/reply/words/en.json',
      'console/dist/index.html',
      'package.json',
      'README.md',
    ]) {
      expect(files, needed).toContain(needed);
    }
    const devOnly = files.filter((file) => /^(test|bench|chaos|scripts|ops|docs|\.ci|\.github|console\/src|clients)\//.test(file) || /^src\/.*\.ts$/.test(file) || /(^|\/)tsconfig[^/]*\.json$|\.tsbuildinfo$/.test(file));
    expect(devOnly).toEqual([]);
  });
});

describe('installed from the tarball into an empty directory', () => {
  it('needs no development dependency (tsx and typescript are not installed)', () => {
    expect(existsSync(path.join(app, 'node_modules/vetted/dist/src/cli/main.js'))).toBe(true);
    expect(existsSync(path.join(app, 'node_modules/tsx'))).toBe(false);
    expect(existsSync(path.join(app, 'node_modules/typescript'))).toBe(false);
  });

  it('`npx vetted dry-run` on the shipped sample model and request prints the decision', async () => {
    const result = await npx(['dry-run', '--model', 'node_modules/vetted/examples/models/flux-schnell.model.json', '--request', 'node_modules/vetted/examples/requests/flux.json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'execute', candidate: { payload: { seed: 1234 } } });
  });

  it('`npx vetted demo` creates and migrates its database, runs the whole pipeline and ends every run as expected', async () => {
    const result = await npx(['demo'], 420_000);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Registering the sample models');
    expect(result.stdout).toMatch(/Summary:[\s\S]*\d+ completed/);
    expect(result.stdout).not.toContain('should have ended');
  }, 480_000);

  it('the declarations give a TypeScript consumer real types (`import { VettedError } from "vetted"`)', async () => {
    // The @ts-expect-error lines fail the check if the types resolved to `any` (a declaration that did not resolve).
    const consumer = [
      "import { VettedError, type ErrorCode, type GenerationRequest } from 'vetted';",
      "const request: GenerationRequest = { prompt: 'a fox' };",
      '// @ts-expect-error prompt is a string',
      'export const bad: GenerationRequest = { prompt: 5 };',
      "export const error: VettedError = new VettedError('INVALID_REQUEST', String(request.prompt));",
      '// @ts-expect-error not a catalogued code',
      "export const code: ErrorCode = 'NO_SUCH_CODE';",
    ];
    writeFileSync(path.join(app, 'consumer.ts'), `${consumer.join('\n')}\n`);
    // skipLibCheck, as consumers compile: the declarations mention pg's and Node's types, which an app brings.
    writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['consumer.ts'] }));
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(result).toBe('');
  });
});
