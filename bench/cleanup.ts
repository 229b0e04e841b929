/**
 * Teardown steps, run last-registered first, each one even if an earlier one failed: a benchmark that
 * dies half way (an error, Ctrl-C) must still drop its database and delete its Redis keys.
 */
export class Cleanup {
  private readonly steps: { what: string; run: () => Promise<void> }[] = [];

  defer(what: string, run: () => Promise<void>): void {
    this.steps.push({ what, run });
  }

  async runAll(note: (line: string) => void): Promise<void> {
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      try {
        await step.run();
      } catch (error) {
        note(`cleanup: ${step.what} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
