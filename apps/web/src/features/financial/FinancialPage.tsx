import { Stack, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useTabParam } from '../../lib/useTabParam.ts';
import { ArrearsPanel } from './ArrearsPanel.tsx';
import { CampaignsPanel } from './CampaignsPanel.tsx';
import { CertificatesPanel } from './CertificatesPanel.tsx';
import { DashboardPanel } from './DashboardPanel.tsx';
import { StatementPanel } from './StatementPanel.tsx';
import { useOpenCase } from './useOpenCase.ts';

const tabs = ['arrears', 'campaigns', 'statement', 'certificates', 'dashboard'] as const;

/** `/contributors/financial-module`: arrears ranking (and its notice campaigns), account statement, solvency certificates, collection dashboard. */
export function FinancialPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useTabParam(tabs);
  const openCase = useOpenCase();
  return (
    <Stack>
      <PageHeader title={t('financial.title')} description={t('financial.description')} />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          {tabs.map((x) => (
            <Tabs.Tab key={x} value={x}>
              {t(`financial.tabs.${x}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="arrears" pt="md">
          <ArrearsPanel onOpenCase={openCase ?? undefined} />
        </Tabs.Panel>
        <Tabs.Panel value="campaigns" pt="md">
          <CampaignsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="statement" pt="md">
          <StatementPanel />
        </Tabs.Panel>
        <Tabs.Panel value="certificates" pt="md">
          <CertificatesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="dashboard" pt="md">
          <DashboardPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
