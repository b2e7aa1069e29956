import { addDays, agreementRestructureSchema, guatemalaToday } from '@aporta/domain';
import { Button, Card, Group, Modal, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { Fact } from '../../components/Fact.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { ReasonModal } from '../../components/ReasonModal.tsx';
import { ScheduleTable } from '../../components/ScheduleTable.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import type { ApiBody } from '../../lib/api.ts';
import { formatIsoDate } from '../../lib/dates.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { downloadAgreementPdf, useAgreement, useRestructure, useVoidAgreement } from './api.ts';
import { AgreementStateBadge, OrdersTable } from './components.tsx';

const day = (iso: string | null) => formatIsoDate(iso) || '—';

type RestructureValues = { downPayment: string; instalments: number | string; firstDueDate: string };

/** The new terms as the API takes them (and as its schema checks them here). */
const toRestructure = (v: RestructureValues): ApiBody<'/api/payment-agreements/{id}/restructure'> => ({
  downPayment: v.downPayment,
  instalments: Number(v.instalments),
  firstDueDate: v.firstDueDate,
});

/** `/planilla/convenios-pago/:id`: debt, schedule (each instalment an order to pay), consolidated orders, PDF, restructure, void. */
export function AgreementPage() {
  const { t } = useTranslation();
  const can = useCan();
  const id = Number(useParams().id);
  const q = useAgreement(id);
  const a = q.data;
  const [voiding, setVoiding] = useState(false);
  const [restructuring, setRestructuring] = useState(false);
  const voidIt = useVoidAgreement(id);
  const restructure = useRestructure(id);
  const form = useForm<RestructureValues>({
    initialValues: { downPayment: '', instalments: 12, firstDueDate: addDays(guatemalaToday(), 30) },
    validate: (values) => zod4Resolver(agreementRestructureSchema)(toRestructure(values)),
  });
  return (
    <QueryState query={q} notFound={<Text>{t('agreements.notFound')}</Text>}>
      {() => (
        <Stack>
          <PageHeader title={`${t('agreements.one')} ${a!.number}`} description={a!.entityName}>
            <Group>
              <Button
                variant="default"
                leftSection={<IconFileTypePdf size={16} />}
                onClick={() => downloadAgreementPdf(id).catch((err) => showApiError(err))}
              >
                {t('agreements.pdf')}
              </Button>
              <SpanishDocumentHint />
              {a!.state === 'VIGENTE' && can('payment-agreements', 'UPDATE') && a!.restructurings < a!.maxRestructurings && (
                <Button variant="default" onClick={() => setRestructuring(true)}>
                  {t('agreements.restructure')}
                </Button>
              )}
              {a!.transitions.some((x) => x.to === 'ANULADO') && (
                <Button color="red" variant="light" onClick={() => setVoiding(true)}>
                  {t('agreements.void')}
                </Button>
              )}
            </Group>
          </PageHeader>
          <Card withBorder>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Fact label={t('agreements.fields.state')}>
                <AgreementStateBadge state={a!.state} />
              </Fact>
              <Fact label={t('agreements.fields.date')}>{day(a!.agreementDate)}</Fact>
              <Fact label={t('agreements.fields.debt')}>
                <Money value={a!.debt} />
              </Fact>
              <Fact label={t('agreements.fields.downPayment')}>
                <Money value={a!.downPayment} />
              </Fact>
              <Fact label={t('agreements.fields.paid')}>
                <span data-testid="agreement-paid">
                  <Money value={a!.paid} />
                </span>
              </Fact>
              <Fact label={t('agreements.fields.balance')}>
                <span data-testid="agreement-balance">
                  <Money value={a!.balance} />
                </span>
              </Fact>
              <Fact label={t('agreements.fields.overdue')}>{a!.overdueInstalments}</Fact>
              <Fact label={t('agreements.fields.restructurings')}>
                {a!.restructurings} / {a!.maxRestructurings}
              </Fact>
              {a!.defaultedAt && <Fact label={t('agreements.fields.defaultedAt')}>{day(a!.defaultedAt)}</Fact>}
              {a!.completedAt && <Fact label={t('agreements.fields.completedAt')}>{day(a!.completedAt)}</Fact>}
              {a!.voidReason && <Fact label={t('agreements.fields.voidReason')}>{a!.voidReason}</Fact>}
            </SimpleGrid>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('agreements.schedule')}
            </Title>
            <ScheduleTable lines={a!.instalments} testId="instalments" />
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('agreements.consolidated')}
            </Title>
            <OrdersTable orders={a!.orders} testId="consolidated-orders" />
          </Card>
          <ReasonModal
            opened={voiding}
            title={t('agreements.void')}
            message={t('agreements.voidMessage')}
            confirmLabel={t('agreements.void')}
            loading={voidIt.isPending}
            onClose={() => setVoiding(false)}
            onConfirm={(reason) =>
              voidIt.mutate(
                { reason },
                {
                  onSuccess: () => {
                    setVoiding(false);
                    notifySuccess(t('agreements.voided'));
                  },
                  onError: (err) => showApiError(err),
                },
              )
            }
          />
          <Modal opened={restructuring} onClose={() => setRestructuring(false)} title={t('agreements.restructure')} centered>
            <form
              onSubmit={form.onSubmit((v) => {
                restructure.mutate(toRestructure(v), {
                  onSuccess: () => {
                    setRestructuring(false);
                    notifySuccess(t('agreements.restructured'));
                  },
                  onError: (err) => showApiError(err, form, ['downPayment', 'instalments', 'firstDueDate']),
                });
              })}
            >
              <Stack>
                <Text size="sm">{t('agreements.restructureMessage', { balance: a!.balance })}</Text>
                <TextInput label={t('agreements.fields.downPayment')} {...form.getInputProps('downPayment')} />
                <NumberInput
                  label={t('agreements.fields.instalments')}
                  min={1}
                  allowDecimal={false}
                  {...form.getInputProps('instalments')}
                />
                <DateField
                  label={t('agreements.fields.firstDueDate')}
                  {...form.getInputProps('firstDueDate')}
                  onChange={(v) => form.setFieldValue('firstDueDate', v ?? '')}
                />
                <FormActions
                  onCancel={() => setRestructuring(false)}
                  submitLabel={t('agreements.restructure')}
                  loading={restructure.isPending}
                />
              </Stack>
            </form>
          </Modal>
        </Stack>
      )}
    </QueryState>
  );
}
