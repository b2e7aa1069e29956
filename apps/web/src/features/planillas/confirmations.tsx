import { centsToDecimal, decimalToCents, formatPeriod } from '@aporta/domain';
import { List, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { ConfirmSummary, type SummaryFact } from '../../components/ConfirmSummary.tsx';
import { Money } from '../../components/Money.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { displayCui } from '../../lib/format.ts';
import type { Planilla, PlanillaComparison } from './api.ts';

/** Deceased lines named in the approval's confirmation; the rest are counted. */
const DECEASED_SHOWN = 5;

const sum = (a: string, b: string) => centsToDecimal(decimalToCents(a) + decimalToCents(b));

/** Entity and period: whose planilla, which month. */
const whose = (t: TFunction, p: Planilla): SummaryFact[] => [
  { label: t('planillas.confirm.entity'), value: `${p.entityName} (${p.entityCode})` },
  { label: t('planillas.confirm.period'), value: `${formatPeriod(p.period)} · ${t(`planillas.types.${p.type}`)}` },
  {
    label: t('planillas.confirm.lines'),
    value: t('planillas.confirm.lineCount', { count: p.lineCount }),
    testId: 'confirm-lines',
  },
];

/**
 * Before sending a planilla to review: whose, which month, how many lines and what they add up to, what
 * happens next (the job validates and recalculates, the delegation reviews, the lines are locked).
 */
export function confirmSubmit(t: TFunction, p: Planilla, onConfirm: () => void) {
  openConfirm({
    title: t('planillas.confirm.submitTitle'),
    size: 'lg',
    children: (
      <ConfirmSummary
        lead={t('planillas.confirm.submitLead', { entity: p.entityName, period: formatPeriod(p.period) })}
        facts={[
          ...whose(t, p),
          { label: t('planillas.fields.totalSalary'), value: <Money value={p.totalSalary} /> },
          { label: t('planillas.fields.employee'), value: <Money value={p.totalEmployee} /> },
          { label: t('planillas.fields.employer'), value: <Money value={p.totalEmployer} /> },
          {
            label: t('planillas.confirm.totalContributions'),
            value: <Money value={sum(p.totalEmployee, p.totalEmployer)} />,
            testId: 'confirm-total',
          },
        ]}
        warnings={p.warningCount > 0 ? t('planillas.confirm.withWarnings', { count: p.warningCount }) : undefined}
        creates={t('planillas.confirm.submitCreates')}
      />
    ),
    labels: { confirm: t('planillas.confirm.submit'), cancel: t('common.cancel') },
    onConfirm,
  });
}

/**
 * Before approving: the payment orders it issues (employee and employer shares, each with its amount) to
 * the entity, and — in red — the lines of people RENAP records as deceased.
 */
export function confirmApprove(t: TFunction, p: Planilla, c: PlanillaComparison | null, onConfirm: () => void) {
  const orders = [
    { kind: 'LABORAL', amount: p.totalEmployee },
    { kind: 'PATRONAL', amount: p.totalEmployer },
  ].filter((o) => decimalToCents(o.amount) > 0n);
  const deceased = c?.deceased ?? [];
  const deceasedCount = c?.deceasedCount ?? 0;
  openConfirm({
    title: t('planillas.confirm.approveTitle'),
    size: 'lg',
    children: (
      <ConfirmSummary
        lead={t('planillas.confirm.approveLead', {
          count: orders.length,
          entity: p.entityName,
          period: formatPeriod(p.period),
        })}
        facts={[
          ...whose(t, p),
          ...orders.map((o) => ({
            label: t('planillas.confirm.order', { kind: t(`planillas.orders.kinds.${o.kind}`) }),
            value: <Money value={o.amount} />,
            testId: `confirm-order-${o.kind}`,
          })),
          {
            label: t('planillas.confirm.totalOrders'),
            value: <Money value={sum(p.totalEmployee, p.totalEmployer)} />,
            testId: 'confirm-total',
          },
        ]}
        warnings={
          deceasedCount > 0 ? (
            <Stack gap={4} data-testid="confirm-deceased">
              <Text size="sm" fw={600}>
                {t('planillas.confirm.deceased', { count: deceasedCount })}
              </Text>
              <List size="sm">
                {deceased.slice(0, DECEASED_SHOWN).map((d) => (
                  <List.Item key={d.lineId}>
                    {t('planillas.confirm.row', { row: d.rowNumber })} · <span dir="ltr">{displayCui(d.cui)}</span> · {d.fullName}
                  </List.Item>
                ))}
              </List>
              {deceasedCount > DECEASED_SHOWN && (
                <Text size="sm">{t('planillas.confirm.deceasedMore', { count: deceasedCount - DECEASED_SHOWN })}</Text>
              )}
              <Text size="sm">{t('planillas.confirm.deceasedHint')}</Text>
            </Stack>
          ) : undefined
        }
        creates={t('planillas.confirm.approveCreates')}
      />
    ),
    labels: { confirm: t('planillas.confirm.approve'), cancel: t('common.cancel') },
    onConfirm,
  });
}
