/**
 * Leak firewall findings → blocking `example_leak` issues. The firewall (../leak-firewall.ts) decides what
 * leaked; this file only says it to a reviewer: which field, what the example had there, and what to do.
 */
import type { FieldSpec, ValidationIssue } from '../../generated/contracts.ts';
import type { LeakFinding, LeakMatch } from '../leak-firewall.ts';
import { attachmentKind, fieldLabel, showValue } from './describe.ts';

/** One blocking issue per finding. */
export function leakIssues(findings: readonly LeakFinding[], fields: ReadonlyMap<string, FieldSpec>): ValidationIssue[] {
  return findings.map((finding) => {
    const spec = fields.get(topLevelField(finding.path));
    const label = fieldLabel(finding.path);
    const where = `at ${fieldLabel(finding.examplePath)} in the model's published example`;
    const what =
      finding.fragment === undefined
        ? `${MATCH_WORDING[finding.match]} ${showValue(finding.exampleValue, spec)} ${where}`
        : `holds "${finding.fragment}", a distinctive piece of the value ${where}`;
    return {
      path: finding.path,
      code: 'example_leak',
      severity: 'blocking',
      message: `${label} ${what}; the user never supplied it`,
      suggestion: nextStep(label, spec),
    };
  });
}

const MATCH_WORDING: Record<LeakMatch, string> = {
  exact: 'copies the value',
  substring: 'shares text with the value',
  number: 'repeats the number',
  fragment: 'holds a distinctive piece of the value',
};

function nextStep(label: string, spec: FieldSpec | undefined): string {
  const kind = attachmentKind(spec);
  if (kind) return `attach ${kind} to the request and use its URL for ${label}, or leave ${label} out`;
  if (spec?.role === 'prompt') return `write ${label} from the user's own words, or ask the user what they want`;
  if (spec?.hasDefault) return `remove ${label} to use the default ${showValue(spec.default, spec)}, or set it from the request`;
  if (spec && !spec.required) return `remove ${label}, or set it from what the user asked for`;
  return `set ${label} from what the user asked for, or ask the user`;
}

function topLevelField(path: string): string {
  const first = path.split('/')[1] ?? '';
  return first.replace(/~1/g, '/').replace(/~0/g, '~');
}
