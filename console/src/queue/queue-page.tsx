import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { api } from '../api/client.ts';
import type { ReviewSummary } from '../api/types.ts';
import { usePeople } from '../review/use-people.ts';
import { navigate } from '../router.ts';
import { can, useMe } from '../session.tsx';
import { durationText, labelOf } from '../ui/format.ts';
import { KeysDialog, useKeys } from '../ui/keys.tsx';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { BulkBar } from './bulk-bar.tsx';
import { setIntent, type Intent } from './intent.ts';
import { QueueTable } from './queue-table.tsx';
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
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [rowError, setRowError] = useState<unknown>(null);
  const { items, stats, error, live, refresh } = useQueue(filters, me.reviewer?.team ?? null);
  const people = usePeople(me);
  const ids = { model: useId(), age: useId(), scope: useId(), snoozed: useId() };

  const shown = useMemo(() => (items ?? []).filter((i) => checkpoint === 'all' || i.checkpoint === checkpoint), [items, checkpoint]);
  const models = useMemo(() => [...new Set([...(items ?? []).map((i) => i.model ?? ''), filters.model ?? ''])].filter(Boolean).sort(), [items, filters.model]);
  const current = shown[Math.min(selected, shown.length - 1)];
  // The bulk bar acts on what is in the list now: a review that left it (decided, expired, snoozed) leaves the selection.
  useEffect(() => {
    setChecked((before) => {
      const present = new Set((items ?? []).map((i) => i.reviewId));
      const kept = [...before].filter((id) => present.has(id));
      return kept.length === before.size ? before : new Set(kept);
    });
  }, [items]);
  const selectedItems = useMemo(() => shown.filter((i) => checked.has(i.reviewId)), [shown, checked]);
  const check = (reviewId: string, on: boolean) => setChecked((before) => {
    const next = new Set(before);
    if (on) next.add(reviewId); else next.delete(reviewId);
    return next;
  });
  const unsnooze = async (reviewId: string) => {
    try {
      await api('DELETE', `/api/reviews/${reviewId}/snooze`);
      setRowError(null);
      await refresh();
    } catch (problem) {
      setRowError(problem);
    }
  };

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
    x: () => { if (current) check(current.reviewId, !checked.has(current.reviewId)); },
    '?': () => setShowKeys((v) => !v),
  });

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Review queue</h1>
          <p className="muted">
            Oldest first{stats?.oldestAgeSeconds != null ? `; the oldest has waited ${stats.oldestAgeSeconds < 60 ? 'under a minute' : durationText(stats.oldestAgeSeconds * 1000)}` : ''}. <span className={live ? 'live live-on' : 'live'} role="status">{live ? 'Live' : 'Connecting…'}</span>{' '}
            <button type="button" className="button-link" onClick={() => setShowKeys(true)}>Keyboard: <kbd>j</kbd> <kbd>k</kbd> <kbd>x</kbd> <kbd>Enter</kbd> · <kbd>?</kbd></button>
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
            {me.reviewer ? <option value="assigned_me">Assigned to me</option> : null}
            <option value="unassigned">Assigned to nobody</option>
          </select>
        </div>
        <label className="checkbox filter-check" htmlFor={ids.snoozed}>
          <input id={ids.snoozed} type="checkbox" checked={filters.includeSnoozed ?? false} onChange={(e) => setFilters({ ...filters, includeSnoozed: e.target.checked || undefined })} />
          Include snoozed
        </label>
      </form>

      <ProblemBanner error={error} />
      <ProblemBanner error={rowError} onDismiss={() => setRowError(null)} />
      <BulkBar
        selected={selectedItems}
        mayDecide={can(me, 'reviews:decide')}
        nameOf={people.nameOf}
        onClear={() => setChecked(new Set())}
        onDecided={(decided) => {
          setChecked((before) => new Set([...before].filter((id) => !decided.includes(id))));
          void refresh();
        }}
      />

      {items === null ? <p className="muted">Loading the queue…</p> : shown.length === 0 ? (
        <div className="empty card"><h2>Nothing waiting</h2><p className="muted">New parked runs appear here as they arrive.</p></div>
      ) : (
        <QueueTable
          items={shown}
          current={current}
          checked={checked}
          nameOf={people.nameOf}
          rowsRef={rows}
          onSelectRow={setSelected}
          onCheck={check}
          onCheckAll={(on) => setChecked(on ? new Set(shown.map((i) => i.reviewId)) : new Set())}
          onUnsnooze={(reviewId) => void unsnooze(reviewId)}
        />
      )}
      <KeysDialog open={showKeys} onClose={() => setShowKeys(false)} />
    </>
  );
}
