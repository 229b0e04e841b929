/**
 * The model catalog and the extraction cache. Example values live in their own table: only the leak
 * firewall and shadow mode read model_examples, and nothing that feeds a builder joins it.
 */
import { jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { ModelSchema } from '../../generated/contracts.ts';
import type { StoredQuarantine } from '../../stages/example-quarantine.ts';

/** Extracted ModelSchemas, keyed by `version:<id>` or `sha256:<content hash>`, so each source is extracted once. */
export const modelSchemas = pgTable('model_schemas', {
  schemaKey: text().primaryKey(),
  model: text(),
  version: text(),
  schemaHash: text().notNull(),
  modelSchema: jsonb().$type<ModelSchema>().notNull(),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const modelExamples = pgTable('model_examples', {
  schemaKey: text()
    .primaryKey()
    .references(() => modelSchemas.schemaKey, { onDelete: 'cascade' }),
  quarantine: jsonb().$type<StoredQuarantine>().notNull(),
});

/** Registered models: `owner/name` (latest) and `owner/name:version` both resolve here. */
export const models = pgTable(
  'models',
  {
    tenantId: text().notNull(),
    ref: text().notNull(),
    schemaKey: text()
      .notNull()
      .references(() => modelSchemas.schemaKey),
    /** The source as registered (any of the three shapes), kept to re-extract after an extractor upgrade. */
    source: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.ref] })],
);

export type ModelRow = typeof models.$inferSelect;
