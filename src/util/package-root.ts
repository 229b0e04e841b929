/**
 * Where the files Vetted reads at run time live (drizzle/ migrations, schemas/, examples/models/, the reply word
 * lists, console/dist, package.json): the package root, found by walking up from this module to the package.json
 * named "vetted". A path relative to `import.meta.url` would differ between src/ (tsx) and dist/src/ (compiled),
 * and break in one of them; the package root is the same for both, and for an installed package.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'vetted';

let cachedRoot: string | undefined;

/** The nearest directory at or above `start` holding the package.json of package `name`. */
export function findPackageRoot(start: string, name = PACKAGE_NAME): string {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (isPackageDir(dir, name)) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json named "${name}" at or above ${start}`);
  }
}

function isPackageDir(dir: string, name: string): boolean {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === name;
  } catch {
    return false;
  }
}

/** The Vetted package root (this checkout, or node_modules/vetted when installed). */
export function packageRoot(): string {
  cachedRoot ??= findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
  return cachedRoot;
}

/** A path inside the package root: `fromPackageRoot('drizzle')`. */
export function fromPackageRoot(...segments: string[]): string {
  return path.join(packageRoot(), ...segments);
}
