/**
 * The Fastify application, as a function of its dependencies, so tests mount it without opening a port.
 * Registration order is explicit: error handling and validation, rate limit, auth and the dependency gate,
 * then the routes, then the OpenAPI document built from them.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { EventHub } from '../src/engine/event-hub.ts';
import { registerReviewGauges } from '../src/observability/review-gauges.ts';
import { registerScrapeGauges } from '../src/observability/scrape-gauges.ts';
import type { System } from '../src/system.ts';
import { registerAuth } from './plugins/auth.ts';
import { collectRoutes } from './openapi/document.ts';
import { registerOpenApi } from './openapi/register.ts';
import { dependencyOfError, endpointsOf, registerDependencyGate } from './plugins/dependencies.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerConsole } from './console.ts';
import { registerJsonBody } from './plugins/json-body.ts';
import { registerSecretFields } from './plugins/answer-masking.ts';
import { registerTracing } from './plugins/tracing.ts';
import { clientErrorHandler, frameworkErrors, onMaxParamLength, registerProblemDetails } from './plugins/problem-details.ts';
import { registerContractValidation } from './plugins/validation.ts';
import { registerAuditRoutes } from './routes/audit.ts';
import { registerControlRoutes } from './routes/control.ts';
import { registerDecisionLinkRoutes } from './routes/decision-links.ts';
import { registerEventRoutes } from './routes/events.ts';
import { MCP_PATH, registerMcpRoutes } from './routes/mcp.ts';
import { registerKeyRoutes } from './routes/keys.ts';
import { registerMcpOriginGuard } from './plugins/mcp-origin.ts';
import { registerNotificationRoutes } from './routes/notifications.ts';
import { registerPolicyRoutes } from './routes/policies.ts';
import { registerProviderWebhookRoutes } from './routes/provider-webhooks.ts';
import { registerReviewFormRoutes } from './routes/review-form.ts';
import { registerReportRoutes } from './routes/reports.ts';
import { registerReviewRoutes, registerReviewTeamRoutes } from './routes/reviews.ts';
import { registerReviewerRoutes } from './routes/reviewers.ts';
import { registerRetentionRoutes } from './routes/retention.ts';
import { registerRunRoutes } from './routes/runs.ts';
import { registerShadowRoutes } from './routes/shadow.ts';
import { registerSlackInteractionRoutes } from './routes/slack-interactions.ts';
import { registerSystemRoutes } from './routes/system.ts';
import { registerTaskRoutes } from './routes/tasks.ts';

export interface AppOptions {
  /** Log requests (off in tests; the system logger still records pipeline events). */
  logRequests?: boolean;
  /** Where the built reviewer console is (default console/dist); served at /console. */
  consoleDir?: string;
}

export async function buildApp(system: System, options: AppOptions = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: system.logger.child({ component: 'api' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: !options.logRequests }),
    bodyLimit: system.config.limits.bodyLimitBytes,
    // Only listed proxies may name the client (X-Forwarded-For); anyone else could spoof their address.
    trustProxy: system.config.trustProxy.length > 0 ? system.config.trustProxy : false,
    // Prototype-pollution shapes in a JSON body are refused, not stripped (json-body.ts names the key).
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    ajv: { customOptions: { removeAdditional: false } },
    routerOptions: { maxParamLength: 200, onMaxParamLength },
    frameworkErrors,
    clientErrorHandler,
  });
  registerTracing(app);
  const endpoints = endpointsOf(system.config);
  registerProblemDetails(app, { dependencyOf: (error) => dependencyOfError(error, endpoints) });
  registerJsonBody(app);
  // Every JSON answer: secrets the pipeline stores to execute (a model's token input, signed URLs) are masked.
  registerSecretFields(app, system);
  registerContractValidation(app);
  // Every route registered from here on joins the OpenAPI document (registered last, below).
  const routes = collectRoutes(app);
  await registerRateLimit(app, system);
  // Behind its public names the API checks /mcp's Origin always and its Host only when VETTED_MCP_ALLOWED_HOSTS is set.
  registerMcpOriginGuard(app, MCP_PATH, system.config.mcp);
  const { forgetVerifiedKeys } = registerAuth(app, system);
  registerDependencyGate(app, system);

  const hub: EventHub = system.openEventHub();
  app.addHook('onClose', () => hub.close());
  registerScrapeGauges(system.metrics, system.metricsQueries, system.queues ?? system.inProcessQueues);
  registerReviewGauges(system.metrics, system.reviewStatsQueries, system.clock);

  registerRunRoutes(app, system);
  registerControlRoutes(app, system);
  registerReviewRoutes(app, system);
  registerReviewTeamRoutes(app, system);
  registerReviewFormRoutes(app, system);
  registerReportRoutes(app, system);
  registerEventRoutes(app, system, hub);
  registerShadowRoutes(app, system);
  registerTaskRoutes(app, system);
  registerAuditRoutes(app, system);
  registerNotificationRoutes(app, system);
  registerRetentionRoutes(app, system);
  registerKeyRoutes(app, system, forgetVerifiedKeys);
  registerReviewerRoutes(app, system, forgetVerifiedKeys);
  registerPolicyRoutes(app, system);
  registerSystemRoutes(app, system);
  await registerProviderWebhookRoutes(app, system);
  await registerSlackInteractionRoutes(app, system);
  await registerDecisionLinkRoutes(app, system);
  registerMcpRoutes(app, system);
  await registerConsole(app, options.consoleDir, system.config.mediaHosts);
  await registerOpenApi(app, routes);
  return app;
}
