import type { EntityTab } from '../../lib/entityTabs.ts';
import { CertificatesPanel } from './CertificatesPanel.tsx';
import { StatementPanel } from './StatementPanel.tsx';

/** The entity's page gains its account statement and its solvency certificates. */
export const financialEntityTabs: readonly EntityTab[] = [
  {
    value: 'statement',
    labelKey: 'financial.tabs.statement',
    order: 20,
    permission: { resource: 'financial-module', action: 'READ' },
    render: (entityId) => <StatementPanel entityId={entityId} />,
  },
  {
    value: 'certificates',
    labelKey: 'financial.tabs.certificates',
    order: 21,
    permission: { resource: 'financial-module', action: 'READ' },
    render: (entityId) => <CertificatesPanel entityId={entityId} />,
  },
];
