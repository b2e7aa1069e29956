import { formatDay } from '@aporta/domain';
import { Alert, Button, Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { ScheduleTable } from '../../components/ScheduleTable.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { errorText } from '../../lib/notify.ts';
import { entityOptions } from '../../lib/options.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { downloadStatement, useStatement } from './api.ts';

/** An entity's account statement as of a date, with PDF and xlsx. `entityId` fixed on the entity's page. */
export function StatementPanel({ entityId: fixed }: { entityId?: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const options = usePlanillaOptions(!fixed && can('planillas', 'READ'));
  const [chosen, setChosen] = useState<number | null>(null);
  const entityId = fixed ?? chosen;
  const [asOf, setAsOf] = useState<string | null>(null);
  const q = useStatement(entityId, asOf);
  const s = q.data;
  const cols = ['declared', 'ordered', 'paid', 'interest', 'inAgreement', 'balance'] as const;
  return (
    <Stack data-testid="statement">
      <Group align="flex-end" wrap="wrap">
        {!fixed && (
          <Select
            label={t('financial.entity')}
            placeholder={t('financial.chooseEntity')}
            searchable
            data={entityOptions(options.data?.entities)}
            value={chosen ? String(chosen) : null}
            onChange={(v) => setChosen(v ? Number(v) : null)}
            w={{ base: '100%', sm: 420 }}
          />
        )}
        <DateField label={t('financial.asOf')} description={t('financial.asOfHint')} value={asOf} onChange={setAsOf} w={200} />
        {s && can('financial-module', 'EXPORT') && (
          <>
            <Button
              variant="default"
              leftSection={<IconFileTypePdf size={16} />}
              onClick={() => entityId && downloadStatement(entityId, asOf, 'pdf').catch((e) => showApiError(e))}
            >
              {t('financial.pdf')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconFileSpreadsheet size={16} />}
              onClick={() => entityId && downloadStatement(entityId, asOf, 'xlsx').catch((e) => showApiError(e))}
            >
              {t('financial.xlsx')}
            </Button>
            <SpanishDocumentHint />
          </>
        )}
      </Group>
      {!entityId && <Text c="dimmed">{t('financial.chooseEntityHint')}</Text>}
      {q.isError && <Alert color="red">{errorText(q.error)}</Alert>}
      {entityId && q.isPending && <Text c="dimmed">{t('financial.loading')}</Text>}
      {s && (
        <>
          <Alert color={s.solvent ? 'teal' : 'orange'} data-testid="statement-solvency">
            {s.solvencyReason}
          </Alert>
          <Table.ScrollContainer minWidth={760}>
            <Table striped data-testid="statement-periods">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('financial.period')}</Table.Th>
                  {cols.map((c) => (
                    <Table.Th key={c} ta="right">
                      {t(`financial.cols.${c}`)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {s.periods.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={7}>
                      <Text c="dimmed">{t('financial.noPeriods')}</Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {s.periods.map((p) => (
                  <Table.Tr key={p.period}>
                    <Table.Td>
                      <Period value={p.period} />
                    </Table.Td>
                    {cols.map((c) => (
                      <Table.Td key={c} ta="right">
                        <Money value={p[c]} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
                <Table.Tr fw={700}>
                  <Table.Td>{t('financial.total')}</Table.Td>
                  {cols.map((c) => (
                    <Table.Td key={c} ta="right">
                      <Money value={s.totals[c]} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {s.agreements.map((a) => (
            <Card withBorder key={a.id}>
              <Title order={3} size="h5" mb="xs">
                <Link to={`/planilla/convenios-pago/${a.id}`}>{a.number}</Link> · {formatDay(a.agreementDate)} ·{' '}
                {t(`agreements.states.${a.state}`)} · {t('financial.cols.balance')} <Money value={a.balance} />
              </Title>
              <ScheduleTable lines={a.instalments} testId={`statement-agreement-${a.id}`} />
            </Card>
          ))}
        </>
      )}
    </Stack>
  );
}
