import { ENV_SCHEMA } from '../config-env.ts';

const DESCRIPTIONS: Partial<Record<keyof typeof ENV_SCHEMA.properties, string>> = {
  DATABASE_URL: 'PostgreSQL connection URL (the database is created if missing)',
  REDIS_URL: 'Redis connection URL: redis://host:port[/db], or redis+cluster://host:port,host:port for a Redis Cluster',
  VETTED_QUEUE_PREFIX: 'BullMQ key prefix; separate installations or test runs in one Redis',
  HOST: 'API listen address',
  PORT: 'API port (also --port)',
  LOG_LEVEL: 'fatal | error | warn | info | debug | trace | silent',
  VETTED_CONCURRENCY: 'jobs per stage worker (default for every stage)',
  VETTED_CONCURRENCY_EXTRACT: 'per-stage override (likewise _ASSEMBLE, _BUILD, _VALIDATE, _EXECUTE)',
  VETTED_MAX_ATTACHMENT_BYTES: 'largest attachment accepted',
  VETTED_BODY_LIMIT_BYTES: 'largest HTTP body accepted',
  VETTED_BUILDER: 'default builder: heuristic | openai (openai when OPENAI_API_KEY is set)',
  VETTED_PROVIDER: 'default provider: dry | replicate (replicate when REPLICATE_API_TOKEN is set)',
  VETTED_POLICY: 'default policy: auto | require_human | auto_with_thresholds',
  VETTED_REVIEW_TTL_SECONDS: 'how long a pending review waits before the run expires',
  VETTED_WEBHOOK_SECRET: 'HMAC-SHA256 key for webhook signatures (required to accept callbackUrl)',
  VETTED_WEBHOOK_ALLOW_PRIVATE: 'true: callbackUrl may point at loopback and private networks (refused by default: SSRF)',
  VETTED_RATE_LIMIT_PER_MINUTE: 'API requests per minute per key; also failed authentications per client address',
  VETTED_TRUST_PROXY: 'comma-separated reverse proxy addresses or CIDR ranges whose X-Forwarded-For names the client (per-address limits)',
  VETTED_RECONCILE_INTERVAL_MS: 'how often the reconciler looks for runs whose job went missing',
  VETTED_RECONCILE_GRACE_MS: 'how long a run may sit unchanged before the reconciler looks at it',
  VETTED_SHADOW_SAMPLE_RATE: 'fraction 0..1 of runs shadowed by the legacy V2 builder unless shadow_settings say otherwise',
  OPENAI_API_KEY: 'enables the openai builder',
  OPENAI_BASE_URL: 'any OpenAI-compatible server (Ollama, vLLM, llama.cpp)',
  FAL_KEY: 'enables the fal provider (models read from fal endpoint documents run on it)',
  FAL_BASE_URL: "where fal queue requests go instead of https://queue.fal.run (a proxy, tests)",
  VETTED_FAL_POLL_MS: 'poll interval while a fal request runs',
  VETTED_FAL_TIMEOUT_MS: 'how long to wait for a fal request before canceling it',
  REPLICATE_API_TOKEN: 'enables the replicate provider',
  REPLICATE_BASE_URL: 'Replicate API base URL (tests, gateways)',
  REPLICATE_WEBHOOK_SECRET: "Replicate's webhook signing secret; deliveries to /api/webhooks/replicate are verified with it",
  VETTED_OPENAI_MODEL: 'model the openai builder asks (any name your OpenAI-compatible server knows)',
  VETTED_OPENAI_TIMEOUT_MS: 'per-request timeout of the openai builder',
  VETTED_OPENAI_MAX_RETRIES: 'SDK retries on timeouts, 429 and 5xx before the run goes to a person',
  VETTED_SMTP_URL: 'smtp(s)://user:pass@host:port for email notifications (unset: no email)',
  VETTED_SMTP_FROM: 'the From of notification email',
  VETTED_CONSOLE_URL: 'where notifications link to: <url>/reviews/<id>, <url>/tasks/<id>',
  VETTED_API_KEY: 'the API key `vetted mcp` acts with over stdio (or --api-key)',
  VETTED_INTERPRETER_TIMEOUT_MS: 'how long the chat-reply interpreter (an LLM call) may take before the reply is asked again',
  VETTED_REPLICATE_POLL_MS: 'first poll interval while a prediction runs (grows with backoff)',
  VETTED_REPLICATE_TIMEOUT_MS: 'how long to wait for a prediction before canceling it',
  VETTED_REPLICATE_RATE_LIMIT: 'predictions started per second by one execute worker (unset: no limit)',
  VETTED_REPLICATE_WEBHOOK_URL: 'public URL of the Replicate webhook route; unset: poll only',
  NODE_ENV: 'production turns production mode on (as VETTED_PRODUCTION=true)',
  VETTED_PRODUCTION: "production mode: a model's secret inputs are refused unless VETTED_DATA_KEY is set",
  VETTED_DATA_KEY: "32 random bytes (base64 or hex) sealing models' secret inputs at rest (AES-256-GCM)",
  VETTED_DATA_KEY_ID: 'the id stored with every value VETTED_DATA_KEY seals',
  VETTED_DATA_KEYS_PREVIOUS: 'older keys as id:key,... that still open stored values until `vetted secrets rotate` re-seals them',
  VETTED_PURGE_INTERVAL_MS: "how often a maintenance worker purges documents past each tenant's retention",
  OTEL_EXPORTER_OTLP_ENDPOINT: 'export traces over OTLP/HTTP to <endpoint>/v1/traces; unset: no tracing',
  OTEL_SERVICE_NAME: 'service name on exported traces',
};

/** The environment variables, for `vetted --help`, generated from the config schema so they never drift. */
export const ENV_HELP = [
  '',
  'Environment:',
  ...Object.entries(ENV_SCHEMA.properties)
    .filter(([name]) => DESCRIPTIONS[name as keyof typeof DESCRIPTIONS])
    .map(([name, spec]) => {
      const fallback = 'default' in spec ? ` [default: ${String(spec.default)}]` : '';
      return `  ${name.padEnd(28)} ${DESCRIPTIONS[name as keyof typeof DESCRIPTIONS]}${fallback}`;
    }),
  '',
  'Exit codes: 0 success, 2 bad input (the message names the file and the field), 1 any other failure.',
].join('\n');
