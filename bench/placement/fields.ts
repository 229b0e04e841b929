/**
 * `tsx bench/placement/fields.ts owner/name ...`: the fields a model's extracted schema has (name, type, enum,
 * range, format, required), to write a corpus line's `expect` against. Prints nothing from the examples.
 */
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { catalogByName } from './catalog.ts';

const catalog = catalogByName();
for (const name of process.argv.slice(2)) {
  const source = catalog.get(name);
  if (source === undefined) {
    console.log(`${name}: not in the catalog`);
    continue;
  }
  const { modelSchema } = extractModelSchema(source);
  console.log(`${name}`);
  for (const field of modelSchema.fields) {
    const range = field.minimum !== undefined || field.maximum !== undefined ? ` [${field.minimum ?? ''}..${field.maximum ?? ''}]` : '';
    const choices = field.enum ? ` {${field.enum.map((value) => JSON.stringify(value)).join(',')}}` : '';
    console.log(`  ${field.required ? '*' : ' '}${field.name}: ${field.type}${field.format ? `/${field.format}` : ''}${range}${choices} (${field.role})`);
  }
}
