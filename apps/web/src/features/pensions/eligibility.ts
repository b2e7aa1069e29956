import type { PensionEligibility } from './api.ts';

type Issue = PensionEligibility['issues'][number];

/**
 * What the pension form does with the eligibility the API found (docs/decisions.md, "Pension
 * eligibility"): a refusal saves nothing and names its reasons; warnings are confirmed one by one
 * before saving; with neither the pension is saved at once.
 */
export type EligibilityStep = { step: 'refuse'; refusals: Issue[] } | { step: 'confirm'; warnings: Issue[] } | { step: 'save' };

export function eligibilityStep(e: Pick<PensionEligibility, 'issues'>): EligibilityStep {
  const refusals = e.issues.filter((i) => i.severity === 'REFUSE');
  if (refusals.length > 0) return { step: 'refuse', refusals };
  const warnings = e.issues.filter((i) => i.severity === 'WARN');
  return warnings.length > 0 ? { step: 'confirm', warnings } : { step: 'save' };
}
