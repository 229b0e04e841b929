/**
 * The rows the task room works with (task types and the tasks escalated for a person) and the repository it
 * needs. Defined here, by the room that uses them; the tables (src/db/schema/tasks.ts) are checked against these
 * types at compile time (SameShape), and src/db/tasks-repository.ts implements TasksRepository.
 */
import type { Page } from '../engine/run-queries.ts';
import type { Confidence, Impact, Person, RoutingCell, TaskReviewRecord, TaskRouting, TaskStatus } from '../generated/contracts.ts';

export interface TaskTypeRow {
  tenantId: string;
  name: string;
  description: string | null;
  /** The JSON Schema every payload of this type must meet. */
  schema: Record<string, unknown>;
  /** canonicalHash of the schema: tasks record which version they were checked against. */
  schemaHash: string;
  /** Confidence × impact pairs the routing policy approves without a person. */
  autoApprove: RoutingCell[];
  createdAt: Date;
  updatedAt: Date;
}

export interface TaskRow {
  id: string;
  tenantId: string;
  taskType: string;
  requestKey: string | null;
  status: TaskStatus;
  routing: TaskRouting;
  confidence: Confidence;
  impact: Impact;
  payload: Record<string, unknown>;
  whyEscalated: string;
  missingInformation: string[];
  submitter: Person;
  /** The caller that submitted it, as the audit trail names callers (`key:<id>`, `reviewer:<id>`). */
  submittedBy: string;
  schemaHash: string;
  review: TaskReviewRecord | null;
  submittedAt: Date;
  reviewedAt: Date | null;
}

/** The fields that may be left out of a new task: the store fills them (null, or now). */
type OptionalOnInsert = 'requestKey' | 'review' | 'submittedAt' | 'reviewedAt';
export type NewTaskRow = Omit<TaskRow, OptionalOnInsert> & { [K in OptionalOnInsert]?: TaskRow[K] | undefined };

export interface TaskFilters {
  status?: TaskStatus;
  taskType?: string;
  limit: number;
  cursor?: string;
}

/** Task types and tasks, every query within one tenant (listTypes without one: every tenant's, for the CLI). */
export interface TasksRepository {
  /** Registers a task type, or replaces its schema and routing (tasks keep the schemaHash they were checked against). */
  upsertType(row: Omit<TaskTypeRow, 'createdAt' | 'updatedAt'>): Promise<TaskTypeRow>;
  getType(tenantId: string, name: string): Promise<TaskTypeRow | undefined>;
  listTypes(tenantId?: string): Promise<TaskTypeRow[]>;
  /** Stores a task; a repeated (tenant, requestKey) returns the task stored first, with created false. */
  insert(row: NewTaskRow): Promise<{ task: TaskRow; created: boolean }>;
  get(tenantId: string, id: string): Promise<TaskRow | undefined>;
  /** Pending tasks oldest first (a queue); reviewed ones, and all of them together, newest first. */
  list(tenantId: string, filters: TaskFilters): Promise<Page<TaskRow>>;
  count(tenantId: string, filters: Omit<TaskFilters, 'limit' | 'cursor'>): Promise<number>;
  /** Records the review of a pending task; undefined when the task is not pending (or not the tenant's). */
  review(tenantId: string, id: string, review: TaskReviewRecord): Promise<TaskRow | undefined>;
}
