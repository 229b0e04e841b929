/**
 * The review card (the Validation Card and Payload Editor): why the run stopped, the candidate as a form
 * from its ModelSchema, where every value came from, the published example (never used), and the decision.
 * After any decision the card stays and turns into a confirmation banner.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/client.ts';
import type { Assignment, DecisionAnswer } from '../api/types.ts';
import { takeIntent } from '../queue/intent.ts';
import { navigate } from '../router.ts';
import { can, useMe } from '../session.tsx';
import { labelOf, timeText } from '../ui/format.ts';
import { KeysDialog, useKeys } from '../ui/keys.tsx';
import { Link } from '../ui/link.tsx';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { ActionsPanel, outputText, type Action } from './actions-panel.tsx';
import { AssignPanel } from './assign-panel.tsx';
import { Countdown } from './countdown.tsx';
import { DecisionList } from './decision-list.tsx';
import { editsOf } from './edits.ts';
import { ExamplePanel } from './example-panel.tsx';
import { FieldTable } from './field-table.tsx';
import { IssueList } from './issue-list.tsx';
import { NotNow } from './not-now.tsx';
import { outcomeText } from './outcome.ts';
import { PayloadForm } from './payload-form.tsx';
import { slaFacts } from './sla-facts.ts';
import { usePeople } from './use-people.ts';
import { useReview } from './use-review.ts';

const AUTO_APPROVE_REASON = 'Auto-approved after the countdown: no blocking issues, policy allows it';

export function ReviewPage({ reviewId }: { reviewId: string }) {
  const me = useMe();
  const mayDecide = can(me, 'reviews:decide');
  const { detail, form, error, claim, markDecided } = useReview(reviewId, mayDecide);
  const people = usePeople(me);
  const [assignment, setAssignment] = useState<Assignment | null>(null);
  const [draft, setDraft] = useState<Record<string, unknown> | null>(null);
  const [copied, setCopied] = useState<Set<string>>(new Set());
  const [outcome, setOutcome] = useState<{ text: string; runId: string } | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [countdownCancelled, setCountdownCancelled] = useState(false);
  const [showKeys, setShowKeys] = useState(false);
  const approveRef = useRef<HTMLButtonElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const formRef = useRef<HTMLElement>(null);

  const review = detail?.review;
  const original = useMemo(() => (review?.candidate?.payload ?? {}) as Record<string, unknown>, [review]);
  useEffect(() => {
    if (review) setDraft({ ...original });
  }, [review, original]);

  const current = draft ?? original;
  const edits = useMemo(() => editsOf(original, current), [original, current]);
  const edited = useMemo(() => new Set(Object.keys(edits)), [edits]);
  const open = detail?.status === 'pending' && !outcome;
  const assigned = assignment ?? detail?.assignment ?? null;
  const canAct = open && mayDecide && claim.kind === 'mine';
  const blocking = review?.issues.filter((i) => i.severity === 'blocking').length ?? 0;
  const countingDown = canAct && !countdownCancelled && !busy && edited.size === 0 && form?.autoApprove.allowed === true;

  async function decide(action: Action, options: { reason?: string; override?: boolean; model?: string; text?: string } = {}) {
    if (!review || !detail) return;
    setBusy(true);
    setActionError(null);
    const copiedNow = [...copied].filter((name) => edited.has(name));
    const notes = [options.reason?.trim(), copiedNow.length ? `Copied from the published example: ${copiedNow.join(', ')}` : ''].filter(Boolean).join('. ');
    try {
      const answer = await api<DecisionAnswer>('POST', `/api/runs/${detail.run.id}/decision`, {
        reviewId: review.reviewId,
        payloadHash: review.payloadHash,
        action,
        ...(action === 'edit' ? { edits } : {}),
        ...(action === 'change_model' && options.model ? { model: options.model } : {}),
        ...(action === 'edit_text' ? { text: options.text, outputHash: review.outputHash } : {}),
        ...(notes ? { reason: notes } : {}),
        ...(options.override ? { override: true } : {}),
      });
      markDecided();
      setOutcome({ text: outcomeText(answer.route, action), runId: detail.run.id });
    } catch (problem) {
      setActionError(problem);
      setCountdownCancelled(true);
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    const intent = takeIntent(reviewId);
    if (!intent || !canAct) return;
    if (intent === 'approve') approveRef.current?.focus();
    if (intent === 'edit') formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    if (intent === 'reject') reasonRef.current?.focus();
  }, [reviewId, canAct]);

  useKeys({
    a: () => { if (canAct && edited.size === 0 && blocking === 0) void decide('approve'); },
    e: () => { setCountdownCancelled(true); formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus(); },
    r: () => { setCountdownCancelled(true); reasonRef.current?.focus(); },
    '?': () => setShowKeys((v) => !v),
  });

  if (error) return <><Breadcrumb /><ProblemBanner error={error} /></>;
  if (!detail || !form || !review) return <><Breadcrumb /><p className="muted">Loading the review…</p></>;
  const schema = form.modelSchema;
  const fieldNames = new Set((schema?.fields ?? []).map((f) => f.name));

  return (
    <>
      <Breadcrumb model={detail.run.model} />
      <header className="card review-head">
        <div className="review-title">
          <h1>{detail.run.model ?? 'Inline model'}</h1>
          <div className="badges">
            <span className="tag">{labelOf(review.checkpoint)}</span>
            <span className="tag tag-reason">{labelOf(review.reason)}</span>
            <span className={`tag status-${detail.status}`}>{labelOf(detail.status)}</span>
          </div>
        </div>
        <dl className="facts">
          <div><dt>Run</dt><dd><Link to={{ page: 'run', runId: detail.run.id }}>{detail.run.id.slice(0, 8)}</Link></dd></div>
          <div><dt>Waiting since</dt><dd><time dateTime={review.createdAt}>{timeText(review.createdAt)}</time></dd></div>
          <div><dt>Expires</dt><dd><time dateTime={review.expiresAt}>{timeText(review.expiresAt)}</time></dd></div>
          {slaFacts(review.sla, people.nameOf).map((fact) => (
            <div key={fact.label} data-testid={`sla-${fact.label.toLowerCase()}`}><dt>{fact.label}</dt><dd>{fact.text}{fact.at ? <> · <time dateTime={fact.at}>{timeText(fact.at)}</time></> : null}</dd></div>
          ))}
          <div><dt>Claim</dt><dd>{claim.kind === 'mine' ? 'yours while the card is open' : detail.claim ? people.nameOf(detail.claim.claimedBy) : 'nobody'}</dd></div>
        </dl>
      </header>

      {claim.kind === 'refused' ? <ProblemBanner error={claim.problem} /> : null}
      {!mayDecide ? <div className="banner banner-info" role="status">Your key may read reviews but not decide them.</div> : null}
      {outcome ? (
        <div className="banner banner-success" role="status" data-testid="confirmation">
          <div><strong>{outcome.text}</strong> <Link to={{ page: 'run', runId: outcome.runId }}>Follow the run</Link> · <Link to={{ page: 'queue' }}>Back to the queue</Link></div>
        </div>
      ) : null}
      {countingDown && form.autoApprove.allowed ? (
        <Countdown
          seconds={form.autoApprove.seconds}
          onElapsed={() => void decide('approve', { reason: AUTO_APPROVE_REASON })}
          onCancel={() => setCountdownCancelled(true)}
          onApproveNow={() => void decide('approve')}
        />
      ) : null}
      {countdownCancelled && form.autoApprove.allowed && open ? <div className="banner banner-info" role="status">Countdown cancelled: review the payload and decide yourself.</div> : null}
      <ProblemBanner error={actionError} onDismiss={() => setActionError(null)} />

      <section className="card" aria-labelledby="why-title">
        <h2 id="why-title">Why it stopped</h2>
        {review.summary ? <p className="lead">{review.summary}</p> : null}
        <p><span className="muted">The person was asked:</span> “{review.question}”</p>
        <IssueList issues={review.issues} />
      </section>

      {review.checkpoint === 'response_review' && review.output !== undefined ? (
        <section className="card" aria-labelledby="output-title" data-testid="review-output">
          <h2 id="output-title">What the model returned</h2>
          {/* The API offers edit_text only for a text output: show that as the text the app reads, anything else as JSON. */}
          <pre className="json output-text">{(review.actions ?? []).some((a) => a.id === 'edit_text') ? outputText(review.output) : JSON.stringify(review.output, null, 2)}</pre>
        </section>
      ) : null}

      <div className="card-layout">
        <div className="card-main">
          <section className="card" aria-labelledby="payload-title" ref={formRef}>
            <h2 id="payload-title">Payload {edited.size > 0 ? <span className="tag tag-edit">{edited.size} edited</span> : null}</h2>
            {schema && review.candidate ? (
              <PayloadForm
                schema={schema}
                value={current}
                onChange={(value) => { setDraft(value); setCountdownCancelled(true); }}
                issues={review.issues.filter((issue) => !edited.has(issue.path.split('/')[1] ?? ''))}
                disabled={!canAct}
              />
            ) : <p className="muted">Nothing was built yet: decide with the actions (an edit sets fields before the build).</p>}
          </section>
          <section className="card" aria-labelledby="provenance-title">
            <h2 id="provenance-title">Where every value came from</h2>
            <FieldTable fields={detail.fields} draft={current} edited={edited} copied={copied} />
          </section>
        </div>
        <aside className="card-side" aria-label="Decision and published example">
          {open && mayDecide ? (
            <ActionsPanel
              ref={approveRef}
              reasonRef={reasonRef}
              review={review}
              editCount={edited.size}
              blocking={blocking}
              mayOverride={can(me, 'override')}
              mayChangeModel={can(me, 'reviews:change_model')}
              disabled={!canAct}
              busy={busy}
              onDecide={(action, options) => { setCountdownCancelled(true); void decide(action, options); }}
            />
          ) : null}
          {open && assigned ? (
            <AssignPanel reviewId={review.reviewId} assignedTo={assigned.assignedTo} people={people.list} nameOf={people.nameOf} mayAssign={can(me, 'reviews:assign')} onAssigned={setAssignment} />
          ) : null}
          {open && mayDecide && assigned ? (
            <NotNow
              reviewId={review.reviewId}
              snoozedUntil={assigned.snoozedUntil}
              // Snoozed: back to the queue it has just left (leaving the card gives the claim back); un-snoozed: stay.
              onChanged={(next, snoozed) => { setAssignment(next); if (snoozed) navigate({ page: 'queue' }); }}
            />
          ) : null}
          {form.example ? (
            <ExamplePanel
              example={form.example}
              fieldNames={fieldNames}
              disabled={!canAct}
              onCopy={(name, value) => {
                setDraft({ ...current, [name]: value });
                setCopied(new Set([...copied, name]));
                setCountdownCancelled(true);
              }}
            />
          ) : null}
        </aside>
      </div>
      {detail.decisions?.length ? <DecisionList decisions={detail.decisions} /> : null}
      <KeysDialog open={showKeys} onClose={() => setShowKeys(false)} />
    </>
  );
}

function Breadcrumb({ model }: { model?: string | null }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <Link to={{ page: 'queue' }}>Queue</Link> <span aria-hidden="true">/</span> <span>{model ?? 'Review'}</span>
    </nav>
  );
}
