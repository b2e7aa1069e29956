import { Card, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EntityTab } from '../../lib/entityTabs.ts';
import { useCan } from '../../lib/useCan.ts';

/**
 * The tabs other modules give a municipal entity's page (payment orders and payments, agreements,
 * statement, certificates, legal cases), those the user may read, opening on the first; none, no card.
 */
export function EntityTabs({ entityId, tabs }: { entityId: number; tabs: readonly EntityTab[] }) {
  const { t } = useTranslation();
  const can = useCan();
  const shown = tabs.filter((x) => can(x.permission.resource, x.permission.action));
  if (!shown.length) return null;
  return (
    <Card withBorder data-testid="entity-payment-tabs">
      <Tabs defaultValue={shown[0].value} keepMounted={false}>
        <Tabs.List>
          {shown.map((x) => (
            <Tabs.Tab key={x.value} value={x.value}>
              {t(x.labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {shown.map((x) => (
          <Tabs.Panel key={x.value} value={x.value} pt="md">
            {x.render(entityId)}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  );
}
