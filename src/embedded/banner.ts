/** What embedded mode says about itself when it starts: what it is, where its data lives, what it does not do. */

/** @param dataDir undefined: in memory. */
export function embeddedBanner(dataDir: string | undefined): string {
  const store = dataDir ? `PGlite (PostgreSQL in WebAssembly) in ${dataDir}` : 'PGlite (PostgreSQL in WebAssembly) in memory: everything is gone when the process ends';
  return [
    'EMBEDDED MODE: single process, not for production.',
    `  store: ${store}`,
    '  work: an in-process runner instead of Redis and BullMQ (stages, review expiry and warnings, webhooks,',
    '  notifications, shadow, the reconciler and the retention purge on their schedules; /metrics counts its tasks).',
    '  Not here: separate workers or more than one process on the data. Set DATABASE_URL and REDIS_URL for those',
    '  (`vetted store move` takes the data along).',
  ].join('\n');
}
