/**
 * The manifest a fresh clone installs from: `npm ci` prints no warning and `engines` tells the truth. Every
 * dependency with an install script is decided in `allowScripts` (npm lists the undecided ones after every
 * install), and every Node.js version our `engines` range admits is one each locked package accepts.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockedPackage {
  engines?: { node?: string };
  hasInstallScript?: boolean;
}

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

/** `node_modules/a/node_modules/@b/c` → `@b/c`. */
function packageName(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

describe('package.json', () => {
  it('decides every install script in allowScripts', () => {
    const undecided = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
      .map(([path]) => packageName(path))
      .filter((name) => manifest.allowScripts?.[name] === undefined);
    expect(undecided).toEqual([]);
  });

  it('admits only Node.js versions every locked package accepts', () => {
    const narrower = Object.entries(lock.packages)
      .filter(([, entry]) => typeof entry.engines?.node === 'string')
      .filter(([, entry]) => !semver.subset(manifest.engines.node, entry.engines?.node ?? '*'))
      .map(([path, entry]) => `${packageName(path)} wants ${entry.engines?.node}`);
    expect(narrower).toEqual([]);
  });

  it('catches a range wider than a package accepts', () => {
    expect(semver.subset('>=20.11', '^20.19.0 || >=22.12.0')).toBe(false);
  });
});
