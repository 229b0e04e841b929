/**
 * The queue's rows: a checkbox for the bulk bar, the model and why it stopped, its issues, its wait, its next
 * deadline (escalation while one is due, else expiry) and who it escalates to, and who it is assigned to and who
 * works it now. A review the signed-in person snoozed (listed with "include snoozed") says until when, with a
 * button to bring it back now.
 */
import type { RefObject } from 'react';
import type { ReviewSummary } from '../api/types.ts';
import { ageOf, labelOf, timeText } from '../ui/format.ts';
import { Link } from '../ui/link.tsx';
import { deadlineOf, untilText } from './deadline.ts';

export interface QueueTableProps {
  items: ReviewSummary[];
  current: ReviewSummary | undefined;
  checked: ReadonlySet<string>;
  nameOf: (idOrActor: string) => string;
  rowsRef: RefObject<HTMLTableSectionElement | null>;
  onSelectRow: (index: number) => void;
  onCheck: (reviewId: string, on: boolean) => void;
  onCheckAll: (on: boolean) => void;
  onUnsnooze: (reviewId: string) => void;
}

export function QueueTable({ items, current, checked, nameOf, rowsRef, onSelectRow, onCheck, onCheckAll, onUnsnooze }: QueueTableProps) {
  const allChecked = items.length > 0 && items.every((item) => checked.has(item.reviewId));
  const now = Date.now();
  return (
    <div className="table-wrap card" role="region" aria-label="Pending reviews, scrollable" tabIndex={0}>
      <table className="queue-table" aria-label="Pending reviews" aria-describedby="queue-help">
        <thead>
          <tr>
            <th scope="col" className="check-cell"><input type="checkbox" aria-label="Select every review shown" checked={allChecked} onChange={(e) => onCheckAll(e.target.checked)} /></th>
            <th scope="col">Model</th><th scope="col">Why it stopped</th><th scope="col">Issues</th><th scope="col">Waiting</th><th scope="col">Deadline</th><th scope="col">Assigned</th>
          </tr>
        </thead>
        <tbody ref={rowsRef}>
          {items.map((item, index) => {
            const deadline = deadlineOf(item, nameOf);
            const model = item.model ?? 'inline model';
            return (
              <tr key={item.reviewId} aria-selected={item === current} className={[item === current ? 'selected' : '', item.snoozedUntil ? 'snoozed' : ''].join(' ').trim() || undefined} onClick={() => onSelectRow(index)} data-review-id={item.reviewId}>
                <td className="check-cell" onClick={(e) => e.stopPropagation()}>
                  <input type="checkbox" aria-label={`Select ${model}, ${labelOf(item.reason).toLowerCase()}, waiting ${ageOf(item.createdAt, now)}`} checked={checked.has(item.reviewId)} onChange={(e) => onCheck(item.reviewId, e.target.checked)} />
                </td>
                <td>
                  <Link to={{ page: 'review', reviewId: item.reviewId }} className="row-link">{model}</Link>
                  <div className="muted small">{labelOf(item.checkpoint)}</div>
                  {item.snoozedUntil ? (
                    <div className="snooze-note small">
                      <span className="tag tag-snoozed">Snoozed until <time dateTime={item.snoozedUntil}>{timeText(item.snoozedUntil)}</time></span>{' '}
                      <button type="button" className="button-ghost button-small" onClick={(e) => { e.stopPropagation(); onUnsnooze(item.reviewId); }}>Back now</button>
                    </div>
                  ) : null}
                </td>
                <td><span className="reason">{labelOf(item.reason)}</span><div className="muted small clamp">{item.summary ?? item.question}</div></td>
                <td>{item.blockingIssues > 0 ? <span className="badge badge-block">{item.blockingIssues} blocking</span> : item.issues.length > 0 ? <span className="badge badge-warn">{item.issues.length} warning{item.issues.length > 1 ? 's' : ''}</span> : <span className="badge badge-ok">none</span>}</td>
                <td><time dateTime={item.createdAt}>{ageOf(item.createdAt, now)}</time></td>
                <td data-testid="deadline">
                  <span title={timeText(deadline.at)}>{deadline.label} <time dateTime={deadline.at}>{untilText(deadline.at, now)}</time></span>
                  {deadline.note ? <div className="muted small">{deadline.note}</div> : null}
                </td>
                <td data-testid="assignee">
                  {item.assignedTo ? nameOf(item.assignedTo) : <span className="muted">—</span>}
                  {item.claimedBy ? <div className="muted small">working: {nameOf(item.claimedBy)}</div> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p id="queue-help" className="sr-only">Use j and k to move, x to select for the bulk bar, Enter to open the selected review.</p>
    </div>
  );
}
