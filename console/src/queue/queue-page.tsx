import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ReviewSummary } from '../api/types.ts';
import { navigate } from '../router.ts';
import { useMe, whoText } from '../session.tsx';
import { ageOf, durationText, labelOf } from '../ui/format.ts';
import { KeysDialog, useKeys } from '../ui/keys.tsx';
import { Link } from '../ui/link.tsx';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { setIntent, type Intent } from './intent.ts';
import { useQueue, type QueueFilters } from './use-queue.ts';

const CHECKPOINTS: ReviewSummary['checkpoint'][] = ['information_review', 'payload_review', 'response_review', 'error_recovery'];
const AGES: { label: string; seconds?: number }[] = [
  { label: 'Any age' }, { label: 'Waiting 1 min or more', seconds: 60 }, { label: 'Waiting 10 min or more', seconds: 600 }, { label: 'Waiting 1 h or more', seconds: 3600 },
];

export function QueuePage() {
  const me = useMe();
  const [filters, setFilters] = useState<QueueFilters>({ scope: 'all' });
  const [checkpoint, setCheckpoint] = useState<ReviewSummary['checkpoint'] | 'all'>('all');
  const [selected, setSelected] = useState(0);
  const [showKeys, setShowKeys] = useState(false);
  const { items, stats, error, live } = useQueue(filters, me.reviewer?.team ?? null);
  const ids = { model: useId(), age: useId(), scope: useId() };

  const shown = useMemo(() => (items ?? []).filter((i) => checkpoint === 'all' || i.checkpoint === checkpoint), [items, checkpoint]);
  const models = useMemo(() => [...new Set([...(items ?? []).map((i) => i.model ?? ''), filters.model ?? ''])].filter(Boolean).sort(), [items, filters.model]);
  const current = shown[Math.min(selected, shown.length - 1)];

  const rows = useRef<HTMLTableSectionElement>(null);
  useEffect(() => {
    rows.current?.querySelector<HTMLElement>('tr[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const open = (intent?: Intent) => {
    if (!current) return;
    if (intent) setIntent(current.reviewId, intent);
    navigate({ page: 'review', reviewId: current.reviewId });
  };
  useKeys({
    j: () => setSelected((s) => Math.min(s + 1, Math.max(0, shown.length - 1))),
    k: () => setSelected((s) => Math.max(0, s - 1)),
    Enter: () => open(),
    a: () => open('approve'),
    e: () => open('edit'),
    r: () => open('reject'),
    '?': () => setShowKeys((v) => !v),
  });

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Review queue</h1>
          <p className="muted">
            Oldest first{stats?.oldestAgeSeconds != null ? `; the oldest has waited ${stats.oldestAgeSeconds < 60 ? 'under a minute' : durationText(stats.oldestAgeSeconds * 1000)}` : ''}. <span className={live ? 'live live-on' : 'live'} role="status">{live ? 'Live' : 'Connecting…'}</span>{' '}
            <button type="button" className="button-link" onClick={() => setShowKeys(true)}>Keyboard: <kbd>j</kbd> <kbd>k</kbd> <kbd>Enter</kbd> · <kbd>?</kbd></button>
          </p>
        </div>
      </div>

      <div className="checkpoint-tabs" role="group" aria-label="Checkpoint">
        <button type="button" aria-pressed={checkpoint === 'all'} onClick={() => setCheckpoint('all')}>
          All <span className="count">{stats?.pending ?? 0}</span>
        </button>
        {CHECKPOINTS.map((c) => (
          <button key={c} type="button" aria-pressed={checkpoint === c} onClick={() => { setCheckpoint(c); setSelected(0); }}>
            {labelOf(c)} <span className="count" data-testid={`count-${c}`}>{stats?.byCheckpoint[c]?.pending ?? 0}</span>
          </button>
        ))}
      </div>

      <form className="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.model}>Model</label>
          <select id={ids.model} value={filters.model ?? ''} onChange={(e) => setFilters({ ...filters, model: e.target.value || undefined })}>
            <option value="">All models</option>
            {models.map((m) => <option key={m} value={m}>{m}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.age}>Age</label>
          <select id={ids.age} value={String(filters.minAgeSeconds ?? '')} onChange={(e) => setFilters({ ...filters, minAgeSeconds: e.target.value ? Number(e.target.value) : undefined })}>
            {AGES.map((a) => <option key={a.label} value={a.seconds ?? ''}>{a.label}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.scope}>Assigned</label>
          <select id={ids.scope} value={filters.scope} onChange={(e) => setFilters({ ...filters, scope: e.target.value as QueueFilters['scope'] })}>
            <option value="all">Everyone's</option>
            <option value="me">Claimed by me</option>
            {me.reviewer?.team ? <option value="team">My team ({me.reviewer.team})</option> : null}
            <option value="unclaimed">Unclaimed</option>
          </select>
        </div>
      </form>

      <ProblemBanner error={error} />

      {items === null ? <p className="muted">Loading the queue…</p> : shown.length === 0 ? (
        <div className="empty card"><h2>Nothing waiting</h2><p className="muted">New parked runs appear here as they arrive.</p></div>
      ) : (
        <div className="table-wrap card" role="region" aria-label="Pending reviews, scrollable" tabIndex={0}>
          <table className="queue-table" aria-label="Pending reviews" aria-describedby="queue-help">
            <thead>
              <tr><th scope="col">Model</th><th scope="col">Why it stopped</th><th scope="col">Issues</th><th scope="col">Waiting</th><th scope="col">Claimed by</th></tr>
            </thead>
            <tbody ref={rows}>
              {shown.map((item, index) => (
                <tr key={item.reviewId} aria-selected={item === current} className={item === current ? 'selected' : undefined} onClick={() => setSelected(index)} data-review-id={item.reviewId}>
                  <td>
                    <Link to={{ page: 'review', reviewId: item.reviewId }} className="row-link">{item.model ?? 'inline model'}</Link>
                    <div className="muted small">{labelOf(item.checkpoint)}</div>
                  </td>
                  <td><span className="reason">{labelOf(item.reason)}</span><div className="muted small clamp">{item.summary ?? item.question}</div></td>
                  <td>{item.blockingIssues > 0 ? <span className="badge badge-block">{item.blockingIssues} blocking</span> : item.issues.length > 0 ? <span className="badge badge-warn">{item.issues.length} warning{item.issues.length > 1 ? 's' : ''}</span> : <span className="badge badge-ok">none</span>}</td>
                  <td><time dateTime={item.createdAt}>{ageOf(item.createdAt)}</time></td>
                  <td>{item.claimedBy ? whoText(me, item.claimedBy) : <span className="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p id="queue-help" className="sr-only">Use j and k to move, Enter to open the selected review.</p>
        </div>
      )}
      <KeysDialog open={showKeys} onClose={() => setShowKeys(false)} />
    </>
  );
}
