/**
 * The alert rules and the dashboard name only metrics Vetted exports: a renamed metric must not leave an
 * alert that can never fire or a panel that stays empty. (promtool checks the rules' syntax and runs their
 * unit tests: scripts/check-alerts.sh.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MetricsQueries } from '../../src/observability/scrape-queries.ts';
import { createMetrics } from '../../src/observability/metrics.ts';
import { registerScrapeGauges } from '../../src/observability/scrape-gauges.ts';
import type { QueueSet } from '../../src/queue/queues.ts';

function exportedNames(): Set<string> {
  const metrics = createMetrics();
  // Gauges query their stores only when scraped; registering them needs none.
  registerScrapeGauges(metrics, {} as MetricsQueries, {} as QueueSet);
  const names = new Set<string>();
  for (const metric of metrics.registry.getMetricsAsArray()) {
    const { name } = metric;
    names.add(name);
    if (metric.constructor.name === 'Histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(name + suffix);
  }
  return names;
}

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const namesIn = (text: string) => new Set([...text.matchAll(/\bvetted_[a-z_]+\b/g)].map((m) => m[0]).filter((n) => !n.startsWith('vetted_process_')));

describe('ops files', () => {
  const exported = exportedNames();

  it('alerts.yml uses only exported metrics, and has the six alerts', () => {
    const text = read('ops/prometheus/alerts.yml');
    const used = [...namesIn(text)];
    expect(used.length).toBeGreaterThan(4);
    expect(used.filter((name) => !exported.has(name))).toEqual([]);
    const alerts = [...text.matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    expect(alerts).toEqual(['VettedQueueStuck', 'VettedReviewPastSla', 'VettedReviewsEscalating', 'VettedExampleLeak', 'VettedProviderErrorRate', 'VettedWorkerDown']);
  });

  it('the Grafana dashboard is JSON whose every panel queries exported metrics', () => {
    const dashboard = JSON.parse(read('ops/grafana/vetted.json')) as { uid: string; panels: { title: string; targets: { expr: string }[] }[] };
    expect(dashboard.uid).toBe('vetted-overview');
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(12);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets) {
        const used = [...namesIn(expr)];
        expect(used.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        expect(used.filter((name) => !exported.has(name)), panel.title).toEqual([]);
      }
    }
  });
});
