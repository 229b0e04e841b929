/**
 * The chaos run's watchdog, one phase at a time: each phase gets a budget, and a phase that outlives it ends
 * the run (keeping the logs, stopping everything). There is always exactly one timer armed from the start to
 * the end of the cleanup, so a run that hangs anywhere still ends.
 *
 * The budgets follow what the machine shows, not a fixed total: on a shared two-core machine at load 20 every
 * phase takes several times what it takes on a quiet one. Start-up is bounded by the processes' own ready
 * timeouts; the sending phase by a stretch of its planned length; and what comes after sending (drain, the
 * stuck-run watch, verification, shutdown) by the drain deadline plus as long again as sending actually took,
 * since a machine that sent slowly checks and stops slowly too.
 */

export interface Budgets {
  /** Services, migrations and every process ready (each start is bounded by its ready timeout). */
  startupMs: number;
  /** The load, the faults beside it and the restarts they caused. */
  sendingMs: number;
  /** Drain, stuck-run watch, verification and the report, from how long sending took. */
  afterSendingMs(sentMs: number): number;
  /** Stopping every process and server. */
  cleanupMs: number;
}

export interface BudgetInput {
  /** requests / rate, in ms. */
  plannedSendingMs: number;
  drainMs: number;
  /** How many processes start one after another, and how long each may take to be ready. */
  processes: number;
  readyTimeoutMs: number;
  /** The longest a single request keeps being retried. */
  maxRetryMs: number;
}

/** Initdb, PostgreSQL and Redis start, migrations: minutes on a loaded machine, not seconds. */
const SERVICES_MS = 300_000;
/** Sending may take this many times its planned length before the watchdog calls it hung. */
const SENDING_STRETCH = 6;
/** On top of every phase: room for the unforeseen that is still progress. */
const SLACK_MS = 300_000;
/** After sending: the stuck-run watch (up to 60 s), the followers' catch-up (60 s), notices on their way (90 s), verification. */
const AFTER_SENDING_BASE_MS = 300_000;

export function budgetsFor(input: BudgetInput): Budgets {
  return {
    startupMs: SERVICES_MS + input.processes * input.readyTimeoutMs + SLACK_MS,
    sendingMs: input.plannedSendingMs * SENDING_STRETCH + input.maxRetryMs + input.readyTimeoutMs + SLACK_MS,
    afterSendingMs: (sentMs) => input.drainMs + AFTER_SENDING_BASE_MS + Math.max(sentMs, input.plannedSendingMs) + SLACK_MS,
    cleanupMs: 120_000,
  };
}

export class PhaseWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private current = '';
  private enteredAt = 0;

  /** `onExpire` is told which phase ran out and after how long. */
  constructor(private readonly onExpire: (why: string) => void) {}

  /** Ends the previous phase and gives `phase` at most `budgetMs`. */
  enter(phase: string, budgetMs: number): void {
    this.stop();
    this.current = phase;
    this.enteredAt = Date.now();
    this.timer = setTimeout(() => this.onExpire(`${phase} took longer than ${Math.round(budgetMs / 1000)} s`), budgetMs);
    // The watchdog never keeps the process alive by itself.
    this.timer.unref();
  }

  /** How long the current phase has run, in ms. */
  elapsedMs(): number {
    return Date.now() - this.enteredAt;
  }

  get phase(): string {
    return this.current;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
