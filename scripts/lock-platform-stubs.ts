// The npm registry reachable from our CI machines does not serve every platform build of
// msgpackr-extract (a BullMQ optional native add-on). `npm install` then silently drops those
// entries from package-lock.json and `npm ci` refuses the lock as "out of sync". This script
// re-adds the missing entries, gated by os/cpu exactly as npm writes them, so `npm ci` skips them
// on Linux and installs them normally on a machine whose registry has them.
// Run it after any `npm install` that rewrites the lock: npm run lock:platforms
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
interface LockEntry { version: string; optionalDependencies?: Record<string, string>; [key: string]: unknown }

const PLATFORMS: Record<string, { os: string; cpu: string }> = {
  'darwin-arm64': { os: 'darwin', cpu: 'arm64' },
  'darwin-x64': { os: 'darwin', cpu: 'x64' },
  'linux-arm': { os: 'linux', cpu: 'arm' },
  'linux-arm64': { os: 'linux', cpu: 'arm64' },
  'linux-x64': { os: 'linux', cpu: 'x64' },
  'win32-x64': { os: 'win32', cpu: 'x64' },
};

const lock = JSON.parse(readFileSync(LOCK, 'utf8')) as { packages: Record<string, LockEntry> };
const parent = lock.packages['node_modules/msgpackr-extract'];
if (!parent) throw new Error('msgpackr-extract is not in package-lock.json; nothing to do');

let added = 0;
for (const [name, version] of Object.entries(parent.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const platform = PLATFORMS[name.replace('@msgpackr-extract/msgpackr-extract-', '')];
  if (!platform) throw new Error(`unknown msgpackr-extract platform package ${name}`);
  lock.packages[key] = { version, cpu: [platform.cpu], license: 'MIT', optional: true, os: [platform.os] };
  added += 1;
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} platform-gated msgpackr-extract entries`);
