import { registerEntityTab } from '../payments/ownerTabs.tsx';
import { CertificatesPanel } from './CertificatesPanel.tsx';
import { StatementPanel } from './StatementPanel.tsx';

// The entity's page gains its account statement and its solvency certificates.
registerEntityTab({
  value: 'statement',
  labelKey: 'financial.tabs.statement',
  order: 20,
  permission: { resource: 'financial-module', action: 'READ' },
  render: (entityId) => <StatementPanel entityId={entityId} />,
});
registerEntityTab({
  value: 'certificates',
  labelKey: 'financial.tabs.certificates',
  order: 21,
  permission: { resource: 'financial-module', action: 'READ' },
  render: (entityId) => <CertificatesPanel entityId={entityId} />,
});
