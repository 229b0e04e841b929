/**
 * What a chaos run may leave on disk, bounded: the free space it needs before it starts, log files that stop
 * growing at a cap, and kept logs copied up to a cap (the rest listed, not copied).
 */
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';

const MB = 1024 * 1024;

/** Room for the private PostgreSQL cluster (initdb, WAL, the run's tables) and Redis, besides the logs. */
export const SERVER_FOOTPRINT_BYTES = 600 * MB;

/** @throws Error saying how much is needed and what to do, when `dir` has less free space than `needBytes`. */
export function assertFreeSpace(dir: string, needBytes: number): void {
  const stats = statfsSync(dir);
  const free = Number(stats.bavail) * Number(stats.bsize);
  if (free >= needBytes) return;
  throw new Error(
    `${dir} has ${Math.floor(free / MB)} MB free; a chaos run needs about ${Math.ceil(needBytes / MB)} MB there ` +
      '(its private PostgreSQL and Redis, and its logs up to --log-cap-mb). Free some space, point --tmp-dir elsewhere, or lower --log-cap-mb.',
  );
}

/** Appends to a file until `maxBytes`, then writes one notice and drops the rest. Never throws. */
export class CappedFile {
  private written = 0;
  private full = false;

  constructor(
    readonly file: string,
    private readonly maxBytes: number,
  ) {}

  write(text: string): void {
    if (this.full) return;
    const bytes = Buffer.byteLength(text);
    try {
      if (this.written + bytes > this.maxBytes) {
        this.full = true;
        appendFileSync(this.file, `\n[log cap of ${Math.round(this.maxBytes / MB)} MB reached: the rest of this log is dropped]\n`);
        return;
      }
      appendFileSync(this.file, text);
      this.written += bytes;
    } catch {
      // A log that cannot be written must not take the run down with it.
    }
  }

  /** A stream to pipe a child's output into. */
  stream(): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        this.write(chunk.toString());
        done();
      },
    });
  }
}

/** Every file under `dir`, with its size, smallest first. */
function filesOf(dir: string): { file: string; size: number }[] {
  const out: { file: string; size: number }[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push({ file: full, size: statSync(full).size });
    }
  };
  walk(dir);
  return out.sort((a, b) => a.size - b.size);
}

/** Total size of the files under `dir`. */
export function sizeOf(dir: string): number {
  return filesOf(dir).reduce((total, f) => total + f.size, 0);
}

/**
 * Copies the files of `sources` (directories or files) into `target`, smallest first, while the total stays
 * under `capBytes`; the ones left out are listed in `target/LEFT-OUT.txt` with their sizes.
 */
export function copyCapped(sources: readonly string[], target: string, capBytes: number): number {
  mkdirSync(target, { recursive: true });
  const files = sources.flatMap((source) => {
    try {
      const stat = statSync(source);
      return stat.isDirectory() ? filesOf(source).map((f) => ({ ...f, base: source })) : [{ file: source, size: stat.size, base: path.dirname(source) }];
    } catch {
      return [];
    }
  }).sort((a, b) => a.size - b.size);
  let total = 0;
  const leftOut: string[] = [];
  for (const { file, size, base } of files) {
    if (total + size > capBytes) {
      leftOut.push(`${path.relative(base, file)} (${size} bytes)`);
      continue;
    }
    const to = path.join(target, path.relative(base, file));
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(file, to);
    total += size;
  }
  if (leftOut.length > 0) writeFileSync(path.join(target, 'LEFT-OUT.txt'), `Past the ${Math.round(capBytes / MB)} MB cap, not kept:\n${leftOut.join('\n')}\n`);
  return total;
}
