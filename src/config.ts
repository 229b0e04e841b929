/**
 * Configuration: parsed and checked once at start-up from the environment, then passed down frozen.
 * This is the only module that reads environment variables; nothing reads them at import time.
 */
import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { VettedError } from './errors.ts';
import type { PolicySpec, StageName } from './generated/contracts.ts';
import { createAjv } from './schema/ajv.ts';
import { describeAjvErrors } from './schema/contracts.ts';
import { parseRedisUrl, type RedisTarget } from './redis-url.ts';
import { parseDataKey, parsePreviousKeys } from './secrets/sealer.ts';
import { ENV_SCHEMA } from './config-env.ts';

export type BuilderName = 'heuristic' | 'openai';
export type ProviderName = 'dry' | 'replicate' | 'fal' | 'openai' | 'anthropic';

export interface Config {
  databaseUrl: string;
  /** REDIS_URL as given (for messages; redact its password before printing). */
  redisUrl: string;
  /** REDIS_URL read: one server, or the seed nodes of a Redis Cluster (src/redis-url.ts). */
  redis: RedisTarget;
  /** BullMQ key prefix, so several installations or test runs can share one Redis. */
  queuePrefix: string;
  host: string;
  port: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  concurrency: Record<StageName, number>;
  /**
   * VETTED_LOCAL_STAGES: the stages that may run locally, in the job of the stage before them, with no queue hop
   * (src/engine/local-stages.ts). `default`: every stage the stage table allows (build only with a
   * deterministic builder; execute never); `none`: every stage is a job of its own queue; or a list.
   */
  localStages: readonly StageName[];
  limits: {
    maxAttachmentBytes: number;
    /** Largest HTTP body the API accepts. */
    bodyLimitBytes: number;
    /** Requests per minute per API key. */
    rateLimitPerMinute: number;
  };
  /** HMAC key for signing webhook deliveries; without it, requests with a callbackUrl are refused. */
  webhookSecret?: string;
  /**
   * Whether callbackUrl may point at loopback and private networks (10/8, 172.16/12, 192.168/16, fc00::/7,
   * 100.64/10). Off by default: webhooks are POSTed from inside our network, so such a target is SSRF.
   */
  webhookAllowPrivate: boolean;
  /** Who may reach /mcp from a browser (DNS rebinding): see api/plugins/mcp-origin.ts. */
  mcp: {
    /** VETTED_MCP_ALLOWED_ORIGINS: origins accepted in an `Origin` header besides loopback ones. */
    allowedOrigins: string[];
    /** VETTED_MCP_ALLOWED_HOSTS: host names accepted in the `Host` header; unset, the server's own default. */
    allowedHosts: string[] | undefined;
  };
  /** VETTED_METRICS_TOKEN: the bearer token /metrics (API and worker --metrics-port) asks for; unset, loopback callers only. */
  metricsToken: string | undefined;
  /**
   * VETTED_TRUST_PROXY: the reverse proxies (addresses or CIDR ranges) whose `X-Forwarded-For` names the client;
   * empty, the connection's address is the client (per-address limits then count the proxy, not its users).
   */
  trustProxy: string[];
  /** How often the maintenance worker purges documents past each tenant's retention (a repeatable job). */
  purgeIntervalMs: number;
  reconciler: {
    /** How often the reconciler looks for runs whose job went missing. */
    intervalMs: number;
    /** How long a run may sit unchanged before its job is looked for. */
    graceMs: number;
  };
  shadow: {
    /**
     * Fraction (0..1) of runs shadowed by the legacy V2 builder when neither the request nor a shadow_settings
     * row says otherwise; 0 turns shadow mode off by default.
     */
    sampleRate: number;
  };
  defaults: {
    builder: BuilderName;
    provider: ProviderName;
    policy: PolicySpec;
    reviewTtlSeconds: number;
  };
  /** The OpenAI API (or a compatible server): the LLM builder and the reply interpreter; with a key, the `openai` provider too. */
  openai: { apiKey?: string; baseUrl?: string; model: string; timeoutMs: number; maxRetries: number };
  /** The `openai` provider (src/adapters/openai/provider): how long one image, speech, transcription or chat call may take. */
  openaiProvider: { timeoutMs: number };
  /** The `anthropic` provider, enabled by ANTHROPIC_API_KEY (src/adapters/anthropic). */
  anthropic: { apiKey?: string; baseUrl?: string; timeoutMs: number; maxRetries: number };
  /**
   * Files a provider must upload itself (OpenAI image edits, transcriptions): the payload names them by URL and
   * the provider downloads them. `allowPrivate` (VETTED_UPLOADS_ALLOW_PRIVATE) lets those URLs be loopback or
   * private addresses (a local file server); otherwise only public addresses are fetched.
   */
  uploads: { allowPrivate: boolean };
  /** How long the chat-reply interpreter (an LLM call) may take before the reply is asked again. */
  interpreterTimeoutMs: number;
  /** VETTED_API_KEY: the key `vetted mcp` acts with over stdio (a client's key, not the server's). */
  apiKey?: string;
  notifications: {
    /** smtp(s)://user:pass@host:port for email notifications; unset: email is off. */
    smtpUrl?: string;
    /** The From of notification email. */
    from: string;
    /** Where people open a review or task: links go to `<consoleUrl>/reviews/<id>` and `<consoleUrl>/tasks/<id>`. */
    consoleUrl: string;
  };
  /**
   * Approve and reject from Slack (src/decision-channels): the app's signing secret checks every interaction; the
   * bot token updates messages and opens the reason dialog; the API URL is Slack's (a local server in tests).
   * Without the signing secret, Slack messages carry no decision buttons and the interactions route answers 401.
   */
  slack: { signingSecret?: string; botToken?: string; apiUrl: string };
  /**
   * Decision links in the waiting-review email: signed with VETTED_EMAIL_LINK_SECRET, or, unset, with a key
   * derived from VETTED_WEBHOOK_SECRET (HMAC of a fixed label), so one server secret can serve both; neither
   * set, email carries no decision links. A link lives `ttlSeconds`, and never past the review's own expiry.
   */
  decisionLinks: { secret?: string; ttlSeconds: number };
  /**
   * VETTED_MEDIA_HOSTS: the hosts (`cdn.example.com`, `*.example.com`) whose images, audio and video the reviewer
   * console previews inline (and its Content-Security-Policy allows). A URL elsewhere (an intranet address in an
   * attachment) is shown as text behind a click, never fetched by the reviewer's browser. Empty by default.
   */
  mediaHosts: readonly string[];
  /**
   * Production mode (NODE_ENV=production or VETTED_PRODUCTION=true): a model's secret inputs are refused
   * unless a data key seals them at rest.
   */
  production: boolean;
  /**
   * VETTED_DATA_KEY (id VETTED_DATA_KEY_ID) seals secret-role inputs at rest (src/secrets/sealer.ts); the
   * previous keys open what they sealed until `vetted secrets rotate` has re-sealed it. Keys as given (64 hex
   * digits or base64 of 32 bytes), checked here.
   */
  dataKeys: { current?: { id: string; key: string }; previous: { id: string; key: string }[] };
  /** OpenTelemetry: spans go to OTLP/HTTP at `<otlpEndpoint>/v1/traces` when it is set (src/observability/tracing.ts). */
  tracing: { otlpEndpoint?: string; serviceName: string };
  /**
   * The fal provider, enabled by FAL_KEY (src/adapters/fal). `webhookUrl`: where fal POSTs when a request is
   * done (unset = poll only); `jwksUrl`: fal's webhook signing keys, which every delivery is checked against.
   */
  fal: { apiKey?: string; baseUrl?: string; pollIntervalMs: number; timeoutMs: number; webhookUrl?: string; jwksUrl: string };
  replicate: {
    apiToken?: string;
    baseUrl?: string;
    pollIntervalMs: number;
    timeoutMs: number;
    /** Predictions started per second by this process's execute worker (a BullMQ limiter); unset = no limit. */
    rateLimitPerSecond?: number;
    /** Where Replicate should POST prediction updates; unset = poll only. */
    webhookUrl?: string;
    /** Replicate's signing secret (whsec_...); with it, webhook deliveries are checked before use. */
    webhookSecret?: string;
  };
}

/** Every variable Vetted reads, with its type and default. The README's configuration table mirrors this. */
export { ENV_SCHEMA };

type EnvKey = keyof typeof ENV_SCHEMA.properties;
type Env = Partial<Record<EnvKey, string | number | boolean>>;

const validateEnv = createAjv({ coerceTypes: true, useDefaults: true, strict: false }).compile(ENV_SCHEMA);

/**
 * Reads the variables Vetted knows from `env`, applies defaults and checks them all at once.
 * @throws VettedError CONFIG_INVALID naming the variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  // An empty value reads as unset, except the queue prefix: an empty one from a template would put this
  // installation on the default prefix, that is on another installation's queues.
  if (env.VETTED_QUEUE_PREFIX === '') {
    throw new VettedError('CONFIG_INVALID', 'Environment variable VETTED_QUEUE_PREFIX is set but empty; unset it to use "vetted", or give a prefix', {
      field: 'VETTED_QUEUE_PREFIX',
    });
  }
  const picked: Env = {};
  for (const key of Object.keys(ENV_SCHEMA.properties) as EnvKey[]) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  if (!validateEnv(picked)) {
    const [first] = describeAjvErrors(validateEnv.errors ?? []);
    throw new VettedError('CONFIG_INVALID', `Environment variable ${first?.field ?? '?'} ${first?.message ?? 'is invalid'}`, {
      field: first?.field,
    });
  }
  const e = picked as Record<string, string | number | boolean | undefined>;
  const str = (key: EnvKey) => (e[key] === undefined ? undefined : String(e[key]));
  const num = (key: EnvKey) => Number(e[key]);
  // The schema coerced 'true' / 'false' to booleans already.
  const bool = (key: EnvKey) => e[key] === true;
  const stageConcurrency = (key: EnvKey) => (e[key] === undefined ? num('VETTED_CONCURRENCY') : num(key));

  const config: Config = {
    databaseUrl: String(e.DATABASE_URL),
    redisUrl: String(e.REDIS_URL),
    redis: parseRedisUrl(String(e.REDIS_URL)),
    queuePrefix: String(e.VETTED_QUEUE_PREFIX),
    host: String(e.HOST),
    port: num('PORT'),
    logLevel: e.LOG_LEVEL as Config['logLevel'],
    concurrency: {
      extract: stageConcurrency('VETTED_CONCURRENCY_EXTRACT'),
      assemble: stageConcurrency('VETTED_CONCURRENCY_ASSEMBLE'),
      build: stageConcurrency('VETTED_CONCURRENCY_BUILD'),
      validate: stageConcurrency('VETTED_CONCURRENCY_VALIDATE'),
      execute: stageConcurrency('VETTED_CONCURRENCY_EXECUTE'),
    },
    localStages: localStageList(String(e.VETTED_LOCAL_STAGES)),
    limits: {
      maxAttachmentBytes: num('VETTED_MAX_ATTACHMENT_BYTES'),
      bodyLimitBytes: num('VETTED_BODY_LIMIT_BYTES'),
      rateLimitPerMinute: num('VETTED_RATE_LIMIT_PER_MINUTE'),
    },
    webhookSecret: str('VETTED_WEBHOOK_SECRET'),
    webhookAllowPrivate: bool('VETTED_WEBHOOK_ALLOW_PRIVATE'),
    mcp: {
      allowedOrigins: originList(str('VETTED_MCP_ALLOWED_ORIGINS')),
      allowedHosts: hostList(str('VETTED_MCP_ALLOWED_HOSTS')),
    },
    metricsToken: str('VETTED_METRICS_TOKEN'),
    trustProxy: proxyList(str('VETTED_TRUST_PROXY')),
    reconciler: { intervalMs: num('VETTED_RECONCILE_INTERVAL_MS'), graceMs: num('VETTED_RECONCILE_GRACE_MS') },
    purgeIntervalMs: num('VETTED_PURGE_INTERVAL_MS'),
    shadow: { sampleRate: num('VETTED_SHADOW_SAMPLE_RATE') },
    defaults: {
      // With a key configured the LLM builds and Replicate executes; without, everything stays offline.
      builder: (str('VETTED_BUILDER') ?? (e.OPENAI_API_KEY ? 'openai' : 'heuristic')) as BuilderName,
      provider: (str('VETTED_PROVIDER') ?? (e.REPLICATE_API_TOKEN ? 'replicate' : 'dry')) as ProviderName,
      policy: { mode: e.VETTED_POLICY as PolicySpec['mode'] },
      reviewTtlSeconds: num('VETTED_REVIEW_TTL_SECONDS'),
    },
    openai: {
      apiKey: str('OPENAI_API_KEY'),
      baseUrl: str('OPENAI_BASE_URL'),
      model: String(e.VETTED_OPENAI_MODEL),
      timeoutMs: num('VETTED_OPENAI_TIMEOUT_MS'),
      maxRetries: num('VETTED_OPENAI_MAX_RETRIES'),
    },
    openaiProvider: { timeoutMs: num('VETTED_OPENAI_EXECUTE_TIMEOUT_MS') },
    anthropic: {
      apiKey: str('ANTHROPIC_API_KEY'),
      baseUrl: str('ANTHROPIC_BASE_URL'),
      timeoutMs: num('VETTED_ANTHROPIC_TIMEOUT_MS'),
      maxRetries: num('VETTED_ANTHROPIC_MAX_RETRIES'),
    },
    uploads: { allowPrivate: bool('VETTED_UPLOADS_ALLOW_PRIVATE') },
    interpreterTimeoutMs: num('VETTED_INTERPRETER_TIMEOUT_MS'),
    apiKey: str('VETTED_API_KEY'),
    notifications: {
      smtpUrl: str('VETTED_SMTP_URL'),
      from: String(e.VETTED_SMTP_FROM),
      consoleUrl: String(e.VETTED_CONSOLE_URL).replace(/\/+$/, ''),
    },
    slack: { signingSecret: str('VETTED_SLACK_SIGNING_SECRET'), botToken: str('VETTED_SLACK_BOT_TOKEN'), apiUrl: String(e.VETTED_SLACK_API_URL) },
    decisionLinks: { secret: linkSecret(str('VETTED_EMAIL_LINK_SECRET'), str('VETTED_WEBHOOK_SECRET')), ttlSeconds: num('VETTED_EMAIL_LINK_TTL_SECONDS') },
    mediaHosts: (str('VETTED_MEDIA_HOSTS') ?? '').split(',').filter(Boolean).map((host) => host.toLowerCase()),
    production: str('NODE_ENV') === 'production' || bool('VETTED_PRODUCTION'),
    dataKeys: dataKeysFrom(str('VETTED_DATA_KEY'), String(e.VETTED_DATA_KEY_ID), str('VETTED_DATA_KEYS_PREVIOUS')),
    tracing: { otlpEndpoint: str('OTEL_EXPORTER_OTLP_ENDPOINT'), serviceName: String(e.OTEL_SERVICE_NAME) },
    fal: {
      apiKey: str('FAL_KEY'),
      baseUrl: str('FAL_BASE_URL'),
      pollIntervalMs: num('VETTED_FAL_POLL_MS'),
      timeoutMs: num('VETTED_FAL_TIMEOUT_MS'),
      webhookUrl: str('VETTED_FAL_WEBHOOK_URL'),
      jwksUrl: String(e.VETTED_FAL_JWKS_URL),
    },
    replicate: {
      apiToken: str('REPLICATE_API_TOKEN'),
      baseUrl: str('REPLICATE_BASE_URL'),
      pollIntervalMs: num('VETTED_REPLICATE_POLL_MS'),
      timeoutMs: num('VETTED_REPLICATE_TIMEOUT_MS'),
      rateLimitPerSecond: e.VETTED_REPLICATE_RATE_LIMIT === undefined ? undefined : num('VETTED_REPLICATE_RATE_LIMIT'),
      webhookUrl: str('VETTED_REPLICATE_WEBHOOK_URL'),
      webhookSecret: str('REPLICATE_WEBHOOK_SECRET'),
    },
  };
  return deepFreeze({ ...config, ...overrides });
}

const LOCAL_ABLE: readonly StageName[] = ['extract', 'assemble', 'build', 'validate'];

/** VETTED_LOCAL_STAGES read: `default`, `none`, or stage names (execute is refused: it waits on the provider). */
function localStageList(value: string): readonly StageName[] {
  if (value === 'default') return LOCAL_ABLE;
  if (value === 'none') return [];
  const names = value.split(',').map((name) => name.trim());
  for (const name of names) {
    if (LOCAL_ABLE.includes(name as StageName)) continue;
    const reason = name === 'execute'
      ? 'names execute, which never runs locally: it calls the provider and keeps its own queue and rate limit'
      : `names "${name}", which is not a stage that may run locally (${LOCAL_ABLE.join(', ')}); or give default or none`;
    throw new VettedError('CONFIG_INVALID', `Environment variable VETTED_LOCAL_STAGES ${reason}`, { field: 'VETTED_LOCAL_STAGES' });
  }
  return LOCAL_ABLE.filter((name) => names.includes(name));
}

/**
 * The process environment for one command: `defaults` apply where a variable is unset (or empty), `over`
 * replaces what is set. `vetted demo` logs at warn unless LOG_LEVEL says otherwise, and points the adapters
 * at its simulators; loadConfig then checks the result like any environment.
 */
export function commandEnv(defaults: Partial<Record<EnvKey, string>>, over: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(defaults)) if (env[key] === undefined || env[key] === '') env[key] = value;
  return { ...env, ...over };
}

/** Secrets in the configuration, for the redactor: they must never reach a stored snapshot or a log line. */
export function configSecrets(config: Config): string[] {
  const dataKeys = [config.dataKeys.current, ...config.dataKeys.previous].map((key) => key?.key);
  return [config.openai.apiKey, config.anthropic.apiKey, config.fal.apiKey, config.replicate.apiToken, config.replicate.webhookSecret, config.webhookSecret, config.apiKey, config.metricsToken,
    config.slack.signingSecret, config.slack.botToken, config.decisionLinks.secret, smtpPassword(config.notifications.smtpUrl), ...dataKeys].filter((s): s is string => Boolean(s));
}

/** The email link key: its own, else one derived from the webhook secret (a different key for a different use). */
function linkSecret(own: string | undefined, webhookSecret: string | undefined): string | undefined {
  if (own) return own;
  return webhookSecret ? createHmac('sha256', webhookSecret).update('vetted email decision links').digest('hex') : undefined;
}

/** The password inside VETTED_SMTP_URL, if any, so the redactor scrubs it from logs. */
function smtpPassword(smtpUrl: string | undefined): string | undefined {
  if (!smtpUrl || !URL.canParse(smtpUrl)) return undefined;
  const password = new URL(smtpUrl).password;
  return password ? decodeURIComponent(password) : undefined;
}

/** The data keys, each checked (32 bytes; a previous key's id differs from the current one's). */
function dataKeysFrom(current: string | undefined, currentId: string, previous: string | undefined): Config['dataKeys'] {
  const parsed = parsePreviousKeys(previous, 'VETTED_DATA_KEYS_PREVIOUS');
  if (current !== undefined) parseDataKey(currentId, current, 'VETTED_DATA_KEY');
  if (current !== undefined && parsed.some((key) => key.id === currentId)) {
    throw new VettedError('CONFIG_INVALID', `VETTED_DATA_KEYS_PREVIOUS names key id "${currentId}", which is VETTED_DATA_KEY_ID: give the new key a new id`, { field: 'VETTED_DATA_KEYS_PREVIOUS' });
  }
  const texts = (previous ?? '').split(',').filter(Boolean).map((entry) => entry.slice(entry.indexOf(':') + 1).trim());
  return {
    ...(current === undefined ? {} : { current: { id: currentId, key: current } }),
    previous: parsed.map((key, i) => ({ id: key.id, key: texts[i] ?? '' })),
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A comma-separated list of origins (`https://app.example`), each checked. @throws VettedError CONFIG_INVALID */
function originList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter(Boolean).map((item) => {
    let origin: string | undefined;
    try {
      origin = new URL(item).origin;
    } catch {
      origin = undefined;
    }
    if (!origin || origin === 'null' || origin !== item.replace(/\/+$/, '')) {
      throw new VettedError('CONFIG_INVALID', `Environment variable VETTED_MCP_ALLOWED_ORIGINS holds "${item}", which is not an origin (scheme://host[:port])`, { field: 'VETTED_MCP_ALLOWED_ORIGINS' });
    }
    return origin;
  });
}

/** A comma-separated list of proxy addresses or CIDR ranges (`10.0.0.0/8`, `::1`). @throws VettedError CONFIG_INVALID */
function proxyList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter(Boolean).map((item) => {
    const [address = '', bits, extra] = item.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || extra !== undefined) {
      throw new VettedError('CONFIG_INVALID', `Environment variable VETTED_TRUST_PROXY holds "${item}", which is not an address or a CIDR range (10.0.0.0/8)`, { field: 'VETTED_TRUST_PROXY' });
    }
    return item;
  });
}

/** A comma-separated list of host names (no ports), lower-cased. @throws VettedError CONFIG_INVALID */
function hostList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean).map((host) => {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/.test(host)) {
      throw new VettedError('CONFIG_INVALID', `Environment variable VETTED_MCP_ALLOWED_HOSTS holds "${host}", which is not a host name`, { field: 'VETTED_MCP_ALLOWED_HOSTS' });
    }
    return host;
  });
}
