/**
 * Review tasks: task types a tenant registered (a name and the JSON Schema its payloads meet), and
 * the tasks apps and agents escalated for a person, with the decision, notes and operator once reviewed.
 */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Confidence, Impact, Person, RoutingCell, TaskReviewRecord, TaskRouting, TaskStatus } from '../../generated/contracts.ts';
import type { NewTaskRow, TaskRow, TaskTypeRow } from '../../tasks/task-rows.ts';
import type { SameShape } from './same-shape.ts';

export type { NewTaskRow, TaskRow, TaskTypeRow } from '../../tasks/task-rows.ts';

export const taskTypes = pgTable(
  'task_types',
  {
    tenantId: text().notNull(),
    name: text().notNull(),
    description: text(),
    /** The JSON Schema every payload of this type must meet. */
    schema: jsonb().$type<Record<string, unknown>>().notNull(),
    /** canonicalHash of the schema: tasks record which version they were checked against. */
    schemaHash: text().notNull(),
    /** Confidence × impact pairs the routing policy approves without a person. */
    autoApprove: jsonb().$type<RoutingCell[]>().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);

export const taskTypesHoldTaskTypeRow: SameShape<typeof taskTypes.$inferSelect, TaskTypeRow> = true;

export const tasks = pgTable(
  'tasks',
  {
    id: uuid().primaryKey(),
    tenantId: text().notNull(),
    taskType: text().notNull(),
    requestKey: text(),
    status: text().$type<TaskStatus>().notNull(),
    routing: text().$type<TaskRouting>().notNull(),
    confidence: text().$type<Confidence>().notNull(),
    impact: text().$type<Impact>().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    whyEscalated: text().notNull(),
    missingInformation: jsonb().$type<string[]>().notNull(),
    submitter: jsonb().$type<Person>().notNull(),
    /** The caller that submitted it, as the audit trail names callers (`key:<id>`, `reviewer:<id>`). */
    submittedBy: text().notNull(),
    schemaHash: text().notNull(),
    review: jsonb().$type<TaskReviewRecord>(),
    submittedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    reviewedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('tasks_tenant_request_key_idx').on(t.tenantId, t.requestKey).where(sql`${t.requestKey} is not null`),
    // Listings by status (the pending queue oldest first, reviewed ones newest first) and per task type.
    index('tasks_tenant_status_submitted_idx').on(t.tenantId, t.status, t.submittedAt, t.id),
    index('tasks_tenant_type_status_idx').on(t.tenantId, t.taskType, t.status, t.submittedAt),
    // Metrics over recent submissions and reviews.
    index('tasks_submitted_idx').on(t.submittedAt),
    index('tasks_reviewed_idx').on(t.reviewedAt).where(sql`${t.reviewedAt} is not null`),
  ],
);

export const tasksHoldTaskRow: SameShape<typeof tasks.$inferSelect, TaskRow> = true;
export const tasksInsertTakesNewTaskRow: SameShape<typeof tasks.$inferInsert, NewTaskRow> = true;
