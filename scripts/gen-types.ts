/**
 * Generates src/generated/contracts.ts from the JSON Schemas in schemas/ with json-schema-to-typescript.
 * `npm run gen:types` writes the file; `--check` exits 1 when the committed file is stale (used by a test).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { generateContractTypes, GENERATED_TYPES_PATH } from './contract-types.ts';

const generated = await generateContractTypes();
if (process.argv.includes('--check')) {
  const current = await readFile(GENERATED_TYPES_PATH, 'utf8').catch(() => '');
  if (current !== generated) {
    console.error(`${GENERATED_TYPES_PATH} is stale: run \`npm run gen:types\` and commit the result.`);
    process.exit(1);
  }
  console.log('generated types are up to date');
} else {
  await writeFile(GENERATED_TYPES_PATH, generated);
  console.log(`wrote ${GENERATED_TYPES_PATH}`);
}
