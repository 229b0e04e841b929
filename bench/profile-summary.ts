/**
 * Where a worker process spent its CPU: `tsx bench/profile-summary.ts <file.cpuprofile> [top]` reads a V8
 * profile written with `npm run bench -- --cpu-prof-dir DIR` and prints self time by package or source
 * folder, then the top functions by self time and by total (inclusive) time.
 * Inclusive time counts a function once per sample even when it recurses.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function main(): void {
  const [file, topArg] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]');
    process.exitCode = 2;
    return;
  }
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const totalUs = [...self.values()].reduce((a, b) => a + b, 0);

  const selfByArea = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    add(selfByArea, area(node), us);
    add(selfByFunction, label(node), us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at) as ProfileNode);
      if (!seen.has(name)) add(inclusive, name, us);
      seen.add(name);
    }
  }
  console.log(`${file}: ${(totalUs / 1e6).toFixed(2)} s sampled`);
  print('self time by area', selfByArea, totalUs, top);
  print('self time by function', selfByFunction, totalUs, top);
  print('total time by function (self + callees)', inclusive, totalUs, top);
}

function add(map: Map<string, number>, key: string, us: number): void {
  map.set(key, (map.get(key) ?? 0) + us);
}

/** The npm package, or the repository folder, a function lives in; V8's pseudo-frames as they are. */
function area(node: ProfileNode): string {
  const url = node.callFrame.url;
  if (!url) return `(${node.callFrame.functionName || 'native'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return url;
  const repo = /\/work\/[^/]+\/(.+)\/[^/]+$/.exec(url);
  return repo ? (repo[1] as string) : url;
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split('/').slice(-2).join('/');
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

function print(title: string, map: Map<string, number>, totalUs: number, top: number): void {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  }
}

main();
