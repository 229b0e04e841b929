/**
 * Files read at run time resolve from the package root, the same from the sources (tsx), from the compiled
 * dist/ and from an installed package, never from a path relative to the module (which differs between them).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_DIST } from '../../api/console.ts';
import { MIGRATIONS_DIR } from '../../src/db/client.ts';
import { SCHEMAS_DIR } from '../../src/schema/contracts.ts';
import { DEFAULT_MODELS_DIR } from '../../src/sim/replicate-catalog.ts';
import { findPackageRoot, packageRoot } from '../../src/util/package-root.ts';

const ROOT = path.resolve('.');

/** The runtime paths as the compiled modules in dist/ compute them, in a plain node process. */
function compiledPaths(): Record<string, string> {
  if (!existsSync(path.join(ROOT, 'dist/api/console.js'))) throw new Error('dist/ is not built: run `npm run build` (scripts/test.sh does)');
  const script = `
    const [{ CONSOLE_DIST }, { MIGRATIONS_DIR }, { SCHEMAS_DIR }, { DEFAULT_MODELS_DIR }, { replyWords }] = await Promise.all([
      import('./dist/api/console.js'), import('./dist/src/db/client.js'), import('./dist/src/schema/contracts.js'),
      import('./dist/src/sim/replicate-catalog.js'), import('./dist/src/review/reply/words.js'),
    ]);
    console.log(JSON.stringify({ CONSOLE_DIST, MIGRATIONS_DIR, SCHEMAS_DIR, DEFAULT_MODELS_DIR, yes: replyWords().yes.has('yes') }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as Record<string, string>;
}

describe('package root', () => {
  it('is the nearest directory whose package.json is named "vetted", skipping other packages on the way', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'vetted-root-'));
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'vetted' }));
    const nested = path.join(root, 'dist', 'src', 'util');
    mkdirSync(nested, { recursive: true });
    // A package.json of another name (a nested workspace, a "type": "module" marker) is not the root.
    writeFileSync(path.join(root, 'dist', 'package.json'), JSON.stringify({ type: 'module' }));
    expect(findPackageRoot(nested)).toBe(root);
    expect(() => findPackageRoot(tmpdir(), 'no-such-package-name')).toThrow(/no package.json named "no-such-package-name"/);
  });

  it('from the sources: migrations, schemas, sample models and the console build are under the checkout', () => {
    expect(packageRoot()).toBe(ROOT);
    expect(MIGRATIONS_DIR).toBe(path.join(ROOT, 'drizzle'));
    expect(SCHEMAS_DIR).toBe(path.join(ROOT, 'schemas'));
    expect(DEFAULT_MODELS_DIR).toBe(path.join(ROOT, 'examples', 'models'));
    expect(CONSOLE_DIST).toBe(path.join(ROOT, 'console', 'dist'));
  });

  it('from the compiled dist/: the same paths (not dist/console/dist or dist/drizzle), and the word lists load', () => {
    expect(compiledPaths()).toEqual({
      CONSOLE_DIST: path.join(ROOT, 'console', 'dist'),
      MIGRATIONS_DIR: path.join(ROOT, 'drizzle'),
      SCHEMAS_DIR: path.join(ROOT, 'schemas'),
      DEFAULT_MODELS_DIR: path.join(ROOT, 'examples', 'models'),
      yes: true,
    });
  });
});
