import type { TFunction } from 'i18next';
import { StateBadge } from '../../components/ContributorStateBadge.tsx';
import type { ListColumn } from '../../components/ListPage.tsx';
import { FieldCell } from '../../lib/field-types.tsx';
import { formatCui } from '../../lib/format.ts';
import type { CuiApproval } from './api.ts';

// dir="ltr" isolates the digit groups, so an Arabic (right-to-left) page never shows them reversed.
export const Cui = ({ value }: { value: string }) => (
  <span dir="ltr" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
    {formatCui(value)}
  </span>
);

/**
 * The columns of a CUI request, in order: when, kind, proposed CUI, who asked, state. The approvals list
 * and a contributor's requests tab add their own around them (the person; who decided and why).
 */
export const cuiRequestColumns = (
  t: TFunction,
): Record<'requestedAt' | 'kind' | 'proposedCui' | 'requestedBy' | 'state', ListColumn<CuiApproval>> => ({
  requestedAt: {
    accessor: 'requestedAt',
    title: t('contributors.approvals.requestedAt'),
    render: (r) => <FieldCell kind="datetime" value={r.requestedAt} />,
  },
  kind: { accessor: 'kind', title: t('contributors.approvals.kind'), render: (r) => t(`contributors.approvals.kinds.${r.kind}`) },
  proposedCui: {
    accessor: 'proposedCui',
    title: t('contributors.approvals.proposedCui'),
    render: (r) => <FieldCell kind="cui" value={r.proposedCui} />,
  },
  requestedBy: { accessor: 'requestedByEmail', title: t('contributors.approvals.requestedBy') },
  state: { accessor: 'state', title: t('contributors.fields.state'), render: (r) => <StateBadge value={r.state} /> },
});
