/**
 * Review tasks (capture and review), for every channel (POST /api/tasks and friends, the MCP
 * tools submit_task, list_tasks, get_task, record_task_review):
 *   - a submission is checked against the contract and its type's schema, routed on confidence × impact
 *     (routing.ts), and stored before anyone is told it was accepted; an automatic approval is recorded as a
 *     review by the policy, so every decided task reads the same;
 *   - a review records approved or rejected, the notes and the operator (the person behind the key, or, for a
 *     service's key, the operator it names) in one compare-and-set: a decided task is never overwritten.
 */
import { actorOf, type Principal } from '../auth/api-keys.ts';
import type { TaskFilters, TaskRow, TasksRepository } from './task-rows.ts';
import { VettedError } from '../errors.ts';
import type { Person, ReviewTask, TaskReviewInput, TaskReviewRecord, TaskSubmission } from '../generated/contracts.ts';
import type { Dispatch } from '../engine/dispatch.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Clock } from '../ports.ts';
import { assertContract } from '../schema/contracts.ts';
import { canonicalHash } from '../util/canonical-hash.ts';
import { findUnstorableText } from '../util/storable-text.ts';
import { AUTO_APPROVER, routeTask } from './routing.ts';
import { assertPayloadFits, taskTypeNamed } from './task-types.ts';

/** What the task services need; a System is one. A task that waits for a person is notified through `dispatch`. */
export interface TaskDeps {
  readonly tasks: TasksRepository;
  readonly clock: Clock;
  readonly newId: () => string;
  readonly dispatch: Pick<Dispatch, 'enqueueNotification'>;
  readonly logger: Logger;
  readonly metrics: Pick<Metrics, 'taskTimeToDecision'>;
}

export interface SubmitTaskResult {
  task: TaskRow;
  /** False when the requestKey matched a task stored earlier, which is returned instead. */
  created: boolean;
}

/**
 * @throws VettedError INVALID_REQUEST naming the field (the contract, text PostgreSQL cannot store, the
 *   payload against its type's schema, with every failure in `details.issues`); TASK_TYPE_NOT_FOUND;
 *   REQUEST_KEY_REUSED when the key was first used for a different submission.
 */
export async function submitTask(deps: TaskDeps, caller: Principal, body: unknown): Promise<SubmitTaskResult> {
  const submission = assertContract<TaskSubmission>('review-task', body, 'task', '#/definitions/TaskSubmission');
  const unstorable = findUnstorableText(submission);
  if (unstorable) throw new VettedError('INVALID_REQUEST', `task: ${unstorable.path} ${unstorable.reason}`, { field: unstorable.path });
  const type = await taskTypeNamed(deps.tasks, caller.tenantId, submission.taskType);
  assertPayloadFits(type, submission.payload);
  const now = deps.clock.now();
  const routing = routeTask(type.autoApprove, submission.confidence, submission.impact);
  const review: TaskReviewRecord | null = routing === 'auto_approved'
    ? { decision: 'approved', notes: `Approved by the routing policy: confidence ${submission.confidence}, impact ${submission.impact} (task type ${type.name})`, operator: { ...AUTO_APPROVER.operator }, reviewedAt: now.toISOString(), actor: AUTO_APPROVER.actor }
    : null;
  const { task, created } = await deps.tasks.insert({
    id: deps.newId(),
    tenantId: caller.tenantId,
    taskType: type.name,
    requestKey: submission.requestKey ?? null,
    status: review ? 'approved' : 'pending',
    routing,
    confidence: submission.confidence,
    impact: submission.impact,
    payload: submission.payload,
    whyEscalated: submission.whyEscalated,
    missingInformation: submission.missingInformation ?? [],
    submitter: submission.submitter,
    submittedBy: actorOf(caller),
    schemaHash: type.schemaHash,
    review,
    submittedAt: now,
    reviewedAt: review ? now : null,
  });
  if (!created) assertSameSubmission(task, submission);
  if (created && task.status === 'pending') await tellPeople(deps, task);
  return { task, created };
}

/** The tenant's channels hear that a task waits; like every notification, this never fails the submission. */
async function tellPeople(deps: TaskDeps, task: TaskRow): Promise<void> {
  await deps.dispatch.enqueueNotification({ tenantId: task.tenantId, subject: 'task', subjectId: task.id, event: 'waiting' }).catch((error: unknown) => {
    deps.logger.warn({ err: error, taskId: task.id }, 'could not queue the notification; the task is in PostgreSQL regardless');
  });
}

/** A requestKey names one submission: the same key with another body is a client bug, never a silent no-op. */
function assertSameSubmission(task: TaskRow, submission: TaskSubmission): void {
  const stored: TaskSubmission = {
    taskType: task.taskType, payload: task.payload, confidence: task.confidence, impact: task.impact, whyEscalated: task.whyEscalated,
    missingInformation: task.missingInformation, submitter: task.submitter, ...(task.requestKey ? { requestKey: task.requestKey } : {}),
  };
  if (canonicalHash(stored) === canonicalHash({ ...submission, missingInformation: submission.missingInformation ?? [] })) return;
  throw new VettedError('REQUEST_KEY_REUSED', `requestKey "${submission.requestKey}" was first used for a different task (${task.id}); use a new key for a new task`, {
    field: 'requestKey',
    details: { taskId: task.id },
  });
}

/** @throws VettedError TASK_NOT_FOUND (also for another tenant's task) */
export async function getTask(deps: Pick<TaskDeps, 'tasks'>, tenantId: string, taskId: string): Promise<TaskRow> {
  const task = await deps.tasks.get(tenantId, taskId);
  if (!task) throw new VettedError('TASK_NOT_FOUND', `No task ${taskId}`, { field: 'taskId' });
  return task;
}

export interface TaskPage {
  items: TaskRow[];
  nextCursor: string | null;
  /** Every task the filters find. */
  total: number;
}

export async function listTasks(deps: Pick<TaskDeps, 'tasks'>, tenantId: string, filters: TaskFilters): Promise<TaskPage> {
  const page = await deps.tasks.list(tenantId, filters);
  const total = !filters.cursor && page.nextCursor === null ? page.items.length : await deps.tasks.count(tenantId, filters);
  return { ...page, total };
}

/**
 * @throws VettedError INVALID_REQUEST (the contract; an operator missing for a service's key, or given with a
 *   person's key), TASK_NOT_FOUND, TASK_ALREADY_REVIEWED naming who decided and when.
 */
export async function recordTaskReview(deps: TaskDeps, caller: Principal, taskId: string, body: unknown): Promise<TaskRow> {
  const input = assertContract<TaskReviewInput>('review-task', body, 'review', '#/definitions/TaskReviewInput');
  const record: TaskReviewRecord = {
    decision: input.decision,
    notes: input.notes,
    operator: operatorOf(caller, input.operator),
    reviewedAt: deps.clock.now().toISOString(),
    actor: actorOf(caller),
  };
  const reviewed = await deps.tasks.review(caller.tenantId, taskId, record);
  if (reviewed) {
    const waitedSeconds = (Date.parse(record.reviewedAt) - reviewed.submittedAt.getTime()) / 1000;
    deps.metrics.taskTimeToDecision.observe({ tenant: reviewed.tenantId, task_type: reviewed.taskType }, Math.max(0, waitedSeconds));
    return reviewed;
  }
  const task = await getTask(deps, caller.tenantId, taskId);
  const earlier = task.review;
  const who = earlier ? ` by ${earlier.operator.name} (${earlier.operator.role}) at ${earlier.reviewedAt}` : '';
  throw new VettedError('TASK_ALREADY_REVIEWED', `Task ${taskId} was ${task.status}${who}; a decided task is never overwritten`, {
    field: 'taskId',
    details: { status: task.status },
  });
}

/** The operator a review records: the person behind a person's key, or the one a service's key names. */
function operatorOf(caller: Principal, named: Person | undefined): Person {
  const person = caller.reviewer;
  if (person) {
    if (named) throw new VettedError('INVALID_REQUEST', "operator: a person's key records its own person; leave operator out", { field: 'operator' });
    return { name: person.name, role: caller.role, id: person.id, ...(person.team ? { team: person.team } : {}) };
  }
  if (!named) throw new VettedError('INVALID_REQUEST', "operator is required with a key that is not a person's: give {name, role} (or use a person's key, `vetted keys create --reviewer`)", { field: 'operator' });
  return named;
}

/** A task as the ReviewTask contract shows it. */
export function taskView(task: TaskRow): ReviewTask {
  return {
    id: task.id,
    taskType: task.taskType,
    status: task.status,
    routing: task.routing,
    confidence: task.confidence,
    impact: task.impact,
    payload: task.payload,
    whyEscalated: task.whyEscalated,
    missingInformation: task.missingInformation,
    submitter: task.submitter,
    requestKey: task.requestKey,
    submittedAt: task.submittedAt.toISOString(),
    review: task.review,
    schemaHash: task.schemaHash,
  };
}
