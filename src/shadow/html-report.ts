/**
 * `vetted shadow report --html out.html`: one self-contained page for engineers deciding a cut-over. The leak
 * rate per model as an inline SVG bar chart, the worst fields with the example value that leaked, and a
 * verdict line. No scripts, fonts, images or stylesheets from elsewhere, so it reads the same offline.
 * Every value is escaped: example values are somebody else's text.
 */
import { percent, WORST_FIELDS } from './report-format.ts';
import type { FieldLeakStats, ModelLeakStats, ShadowSummary } from './types.ts';

export interface HtmlReportMeta {
  generatedAt: Date;
  /** The tenant the report covers, or null for every tenant. */
  tenant: string | null;
  model?: string;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:960px;color:#1f2328;padding:0 1rem}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem}
.meta{color:#59636e}.verdict{padding:.75rem 1rem;border-radius:6px;margin:1rem 0}
.ok{background:#dafbe1}.bad{background:#ffebe9}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #d1d9e0;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:12px;word-break:break-all}
svg text{font:12px system-ui,sans-serif;fill:#1f2328}`;

const CHART = { label: 260, bar: 520, row: 26, pad: 8 };

/** The whole page as a string. */
export function renderShadowHtml(summary: ShadowSummary, meta: HtmlReportMeta): string {
  const scope = `${meta.tenant === null ? 'every tenant' : `tenant ${meta.tenant}`}${meta.model ? `, model ${meta.model}` : ''}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Vetted shadow report</title><style>${STYLE}</style></head>
<body>
<h1>Shadow mode: what V2 leaks, and that V3 does not</h1>
<p class="meta">${escapeHtml(scope)} · reports since ${escapeHtml(summary.since)} · generated ${escapeHtml(meta.generatedAt.toISOString())}</p>
${verdict(summary)}
<h2>Leak rate per model (share of shadowed runs where V2 carried an example value)</h2>
${leakChart(summary.models)}
<h2>Worst fields</h2>
${fieldTable(summary.fields.slice(0, WORST_FIELDS))}
<h2>Per model</h2>
${modelTable(summary.models)}
<p class="meta">A leak is a V2 payload value that matches the model's example input and that neither the user (prompt,
attachments, edits) nor the schema default explains; matched exactly, as a substring, or as a number, by the same
rules as Vetted's leak firewall.</p>
</body></html>
`;
}

function verdict(summary: ShadowSummary): string {
  const t = summary.totals;
  if (t.reports === 0) return '<p class="verdict ok">No shadowed runs in this period.</p>';
  if (t.v3Leaks > 0) return `<p class="verdict bad"><strong>${t.v3Leaks} example value(s) in V3 payloads.</strong> Zero trust is broken: do not cut over; report it.</p>`;
  return `<p class="verdict ok"><strong>V3 leaked nothing</strong> in ${t.reports - t.failed} compared runs; V2 leaked in ${t.withLeaks} (${percent(t.leakRate)}).${t.failed > 0 ? ` ${t.failed} comparison(s) failed (see the reports).` : ''}</p>`;
}

/** Horizontal bars, one per model: V2's leak rate, with V3's leak count beside it. */
export function leakChart(models: readonly ModelLeakStats[]): string {
  if (models.length === 0) return '<p class="meta">Nothing to chart.</p>';
  const width = CHART.label + CHART.bar + 150;
  const height = CHART.pad * 2 + models.length * CHART.row;
  const rows = models.map((m, i) => {
    const y = CHART.pad + i * CHART.row;
    const w = Math.max(m.leakRate > 0 ? 2 : 0, Math.round(m.leakRate * CHART.bar));
    const v3 = m.v3Leaks > 0 ? ` · V3 leaks: ${m.v3Leaks}` : ' · V3: none';
    return [
      `<text x="${CHART.label - 8}" y="${y + 17}" text-anchor="end">${escapeHtml(m.model)}</text>`,
      `<rect x="${CHART.label}" y="${y + 4}" width="${CHART.bar}" height="18" fill="#eff2f5"/>`,
      `<rect x="${CHART.label}" y="${y + 4}" width="${w}" height="18" fill="${m.v3Leaks > 0 ? '#82071e' : '#cf222e'}"><title>${escapeHtml(`${m.model}: ${m.withLeaks} of ${m.reports - m.failed} runs`)}</title></rect>`,
      `<text x="${CHART.label + CHART.bar + 6}" y="${y + 17}">${percent(m.leakRate)}${escapeHtml(v3)}</text>`,
    ].join('');
  });
  return `<svg role="img" aria-label="V2 leak rate per model" viewBox="0 0 ${width} ${height}" width="100%">${rows.join('\n')}</svg>`;
}

function fieldTable(fields: readonly FieldLeakStats[]): string {
  if (fields.length === 0) return '<p>V2 leaked no example value in this period.</p>';
  const rows = fields.map(
    (f) =>
      `<tr><td>${escapeHtml(f.model)}</td><td><code>${escapeHtml(f.field)}</code></td><td class="n">${f.leaked}/${f.reports}</td>` +
      `<td class="n">${percent(f.leakRate)}</td><td>${escapeHtml(f.matches.join(', '))}</td><td><code>${escapeHtml(f.exampleValue === null ? '' : JSON.stringify(f.exampleValue))}</code></td></tr>`,
  );
  return `<table><thead><tr><th>model</th><th>field</th><th>leaked</th><th>rate</th><th>matched</th><th>example value</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

function modelTable(models: readonly ModelLeakStats[]): string {
  if (models.length === 0) return '<p class="meta">No models.</p>';
  const rows = models.map(
    (m) =>
      `<tr><td>${escapeHtml(m.model)}</td><td class="n">${m.reports}</td><td class="n">${m.failed}</td><td class="n">${m.withLeaks}</td>` +
      `<td class="n">${percent(m.leakRate)}</td><td class="n">${m.v2Leaks}</td><td class="n">${m.v3Leaks}</td><td class="n">${m.fieldsDiffering}</td></tr>`,
  );
  return `<table><thead><tr><th>model</th><th>runs</th><th>failed</th><th>V2 leaking</th><th>rate</th><th>V2 leaks</th><th>V3 leaks</th><th>fields differing</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
