/**
 * Structured JSON logs (pino). HITL and pipeline events are log lines with a stable `event` name plus
 * traceId and threadId, so one request can be followed across workers and resumes.
 */
import { pino, type Logger } from 'pino';
import { maskLoggedQueries, maskQuerySecrets, type Redactor } from './redact.ts';
import { activeTraceFields } from './tracing.ts';

export type { Logger };

export type LogEventName =
  | 'HITL_CREATED'
  | 'HITL_RESUME_VALID'
  | 'HITL_CANCELLED'
  | 'HITL_EXPIRED'
  | 'HITL_DUPLICATE_ATTEMPT'
  | 'HITL_QUORUM_PENDING'
  | 'HITL_OVERRIDE'
  | 'HITL_CLAIMED'
  | 'HITL_REMINDED'
  | 'HITL_ESCALATED'
  | 'HITL_RELEASED'
  | 'HITL_ASSIGNED'
  | 'HITL_SNOOZED'
  | 'HITL_FAST_PATH_MATCH'
  | 'HITL_INTERPRETER_RESULT'
  | 'HITL_CONTINUE_WITH_MODIFICATIONS'
  | 'HITL_SWITCH_INTENT'
  | 'HITL_RE_ASK'
  | 'RUN_CREATED'
  | 'RUN_COMPLETED'
  | 'RUN_FAILED'
  | 'RUN_CANCELLED'
  | 'RUN_PAUSED'
  | 'RUN_RESUMED'
  | 'RUN_REQUEUED'
  | 'STAGE_RETRY'
  | 'STAGE_STALE_JOB'
  | 'EXECUTION_REUSED'
  | 'EXECUTION_RESUMED'
  | 'SHADOW_REPORTED'
  | 'SHADOW_FAILED'
  | 'SHADOW_TRIGGER_FAILED';

export interface LogContext {
  traceId: string;
  threadId: string;
  runId: string;
}

export function createLogger(options: { level: string; redact: Redactor; destination?: NodeJS.WritableStream; name?: string }): Logger {
  return pino(
    {
      level: options.level,
      name: options.name ?? 'vetted',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Inside a span (an API request, a stage job) every line carries its trace and span ids; a line about a
      // run names the run's trace id itself (logContext), which wins.
      mixin: activeTraceFields,
      // Header and secret-named fields are removed by pino itself; values inside strings by our redactor.
      redact: { paths: ['req.headers.authorization', '*.apiKey', '*.token', '*.password'], censor: '[redacted]' },
      // Fastify's request line with its URL's credential query values masked (an email decision link's token).
      serializers: { req: requestLine },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((arg) => maskLoggedQueries(options.redact(arg))) as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? process.stdout,
  );
}

/** The fields of a request an API log line shows (Fastify's own choice), its URL's secret query values masked. */
interface LoggedRequest {
  method?: string;
  url?: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

function requestLine(request: LoggedRequest) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? maskQuerySecrets(request.url) : request.url,
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** One structured event line: `{event, traceId, threadId, runId, ...}`. */
export function logEvent(logger: Logger, event: LogEventName, context: LogContext, fields: Record<string, unknown> = {}, level: 'info' | 'warn' = 'info'): void {
  logger[level]({ event, ...context, ...fields }, event);
}

/** The ids every log line about a run carries. */
export function logContext(run: { id: string; traceId: string; threadId: string }): LogContext {
  return { runId: run.id, traceId: run.traceId, threadId: run.threadId };
}
