/**
 * stdout and stderr for long commands (the chaos run, the bench, the demo) that may outlive whoever reads them:
 * a closed pipe (the terminal went away, `timeout` stopped the parent, `| head` had enough) makes the next write
 * fail with EPIPE, which with no listener is an uncaught exception. Guarded, the failure is caught once, later
 * writes are dropped, and the command is told so it can stop cleanly. Writing never throws.
 */

export interface OutputGuard {
  /** True once either stream failed; nothing is written after that. */
  readonly closed: boolean;
  out(text: string): void;
  err(text: string): void;
}

/** Listens for write failures on stdout and stderr; `onClosed` runs once, on the first. */
export function guardOutput(onClosed: (why: string) => void): OutputGuard {
  let closed = false;
  const fail = (stream: string) => (error: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    onClosed(`${stream} closed (${error.code ?? error.message})`);
  };
  process.stdout.on('error', fail('stdout'));
  process.stderr.on('error', fail('stderr'));
  const write = (stream: NodeJS.WriteStream, text: string) => {
    if (closed || stream.destroyed) return;
    try {
      stream.write(text);
    } catch (error) {
      fail(stream === process.stdout ? 'stdout' : 'stderr')(error as NodeJS.ErrnoException);
    }
  };
  return {
    get closed() {
      return closed;
    },
    out: (text) => write(process.stdout, text),
    err: (text) => write(process.stderr, text),
  };
}
