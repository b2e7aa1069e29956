import {
  type BeneficiaryInput,
  formatCui,
  type PensionDetail,
  type PensionInput,
  type PensionType,
  pensionInputSchema,
  pensionTypeLabels,
  pensionTypes,
  pensionUpdateSchema,
  type Relationship,
  relationshipLabels,
  relationships,
} from '@aporta/domain';
import { ActionIcon, Alert, Button, Card, Group, List, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ConfirmSummary } from '../../components/ConfirmSummary.tsx';
import { DateField } from '../../components/DateField.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { NotAuthorizedPage } from '../../components/RequirePermission.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { displayCui, formatDate } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { messageText } from '../../lib/server-messages.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  type PensionBody,
  type PensionEligibility,
  type PensionUpdate,
  useCheckEligibility,
  useCreatePension,
  usePension,
  useUpdatePension,
} from './api.ts';
import { eligibilityStep } from './eligibility.ts';

type BeneficiaryValues = {
  key: string;
  cui: string;
  fullName: string;
  birthDate: string;
  relationship: Relationship | null;
  share: string;
  studyCertificateUntil: string;
};
type FormValues = {
  cui: string;
  type: PensionType | null;
  resolutionNumber: string;
  resolutionDate: string;
  startDate: string;
  monthlyAmount: string;
  bankAccount: string;
  beneficiaries: BeneficiaryValues[];
};

/** A beneficiary as the schema reads it while being typed: the relationship may still be unchosen. */
type BeneficiaryDraft = Omit<BeneficiaryInput, 'relationship'> & { relationship: Relationship | null };
/** The pension as the schema reads it while being typed: the type may still be unchosen. */
type PensionDraft = Omit<PensionInput, 'type' | 'beneficiaries'> & {
  type: PensionType | null;
  beneficiaries: BeneficiaryDraft[];
};

const beneficiaryDrafts = (v: FormValues): BeneficiaryDraft[] =>
  v.beneficiaries.map(({ key: _key, ...b }) => ({ ...b, studyCertificateUntil: b.studyCertificateUntil || null }));
const toDraft = (v: FormValues): PensionDraft => ({
  cui: v.cui,
  type: v.type,
  resolutionNumber: v.resolutionNumber,
  resolutionDate: v.resolutionDate,
  startDate: v.startDate,
  monthlyAmount: v.monthlyAmount,
  bankAccount: v.bankAccount,
  beneficiaries: beneficiaryDrafts(v),
});
/** What an edit sends (the other fields are locked), as the schema reads it. */
const toUpdateDraft = (v: FormValues): Omit<PensionUpdate, 'beneficiaries'> & { beneficiaries: BeneficiaryDraft[] } => ({
  resolutionNumber: v.resolutionNumber,
  bankAccount: v.bankAccount,
  beneficiaries: beneficiaryDrafts(v),
});

const createErrors = zod4Resolver(pensionInputSchema);
const updateErrors = zod4Resolver(pensionUpdateSchema);
const requiredDates = { resolutionDate: 'la fecha de resolución', startDate: 'la fecha de inicio' } as const;

/**
 * The domain schema's messages (the create's, or the edit's for an existing pension), with
 * "Ingrese…/Seleccione…" for what is still empty (not "no válido").
 */
function validateForm(values: FormValues, editing: boolean) {
  const errors = editing ? updateErrors(toUpdateDraft(values)) : createErrors(toDraft(values));
  for (const [field, label] of Object.entries(requiredDates))
    if (!values[field as keyof typeof requiredDates]) errors[field] = `Ingrese ${label}.`;
  if (!values.type) errors.type = 'Seleccione el tipo de pensión.';
  values.beneficiaries.forEach((b, i) => {
    if (!b.birthDate) errors[`beneficiaries.${i}.birthDate`] = 'Ingrese la fecha de nacimiento.';
    if (!b.relationship) errors[`beneficiaries.${i}.relationship`] = 'Seleccione el parentesco.';
  });
  return errors;
}

let nextKey = 0;
const emptyBeneficiary = (): BeneficiaryValues => ({
  key: `b${++nextKey}`,
  cui: '',
  fullName: '',
  birthDate: '',
  relationship: null,
  share: '',
  studyCertificateUntil: '',
});

const empty: FormValues = {
  cui: '',
  type: null,
  resolutionNumber: '',
  resolutionDate: '',
  startDate: '',
  monthlyAmount: '',
  bankAccount: '',
  beneficiaries: [],
};

const fromPension = (p: PensionDetail): FormValues => ({
  cui: formatCui(p.cui),
  type: p.type,
  resolutionNumber: p.resolutionNumber,
  resolutionDate: p.resolutionDate,
  startDate: p.startDate,
  monthlyAmount: p.monthlyAmount,
  bankAccount: p.bankAccount,
  beneficiaries: p.beneficiaries.map((b) => ({
    key: `b${++nextKey}`,
    cui: formatCui(b.cui),
    fullName: b.fullName,
    birthDate: b.birthDate,
    relationship: b.relationship,
    share: b.share,
    studyCertificateUntil: b.studyCertificateUntil ?? '',
  })),
});

type BeneficiaryBody = NonNullable<PensionBody['beneficiaries']>[number];

/** The beneficiaries as the API takes them; null while one lacks its relationship (the form's check names it). */
const beneficiariesOf = (v: FormValues): BeneficiaryBody[] | null => {
  const out: BeneficiaryBody[] = [];
  for (const { key: _key, relationship, ...b } of v.beneficiaries) {
    if (!relationship) return null;
    out.push({ ...b, relationship, studyCertificateUntil: b.studyCertificateUntil || null });
  }
  return out;
};

/** A new pension as the API takes it; null while the type or a relationship is missing (the form's check names it). */
const toInput = (v: FormValues): PensionBody | null => {
  const beneficiaries = beneficiariesOf(v);
  return v.type && beneficiaries ? { ...v, type: v.type, beneficiaries } : null;
};

type EligibilityIssue = PensionEligibility['issues'][number];

/**
 * Before registering a pension whose eligibility carries warnings: who, which type, from when, what the
 * history shows (age, months contributed), and each warning; registering anyway is the clerk's decision.
 */
function confirmWarnings(
  t: TFunction,
  body: PensionBody,
  e: PensionEligibility,
  warnings: EligibilityIssue[],
  onConfirm: () => void,
) {
  openConfirm({
    title: t('pensions.eligibility.confirmTitle'),
    size: 'lg',
    children: (
      <ConfirmSummary
        lead={t('pensions.eligibility.confirmLead', { count: warnings.length })}
        facts={[
          { label: t('pensions.form.pensionerCui'), value: <span dir="ltr">{displayCui(body.cui)}</span> },
          { label: t('pensions.fields.type'), value: pensionTypeLabels[body.type] },
          { label: t('pensions.fields.startDate'), value: formatDate(body.startDate) },
          { label: t('pensions.eligibility.age'), value: t('pensions.eligibility.years', { count: e.age }) },
          {
            label: t('pensions.eligibility.contributionMonths'),
            value: t('pensions.eligibility.months', { count: e.contributionMonths }),
          },
        ]}
        warnings={
          <List size="sm" data-testid="eligibility-warnings">
            {warnings.map((w) => (
              <List.Item key={`${w.code}-${w.message}`}>{messageText(w)}</List.Item>
            ))}
          </List>
        }
        creates={t('pensions.eligibility.confirmCreates')}
      />
    ),
    labels: { confirm: t('pensions.eligibility.registerAnyway'), cancel: t('common.cancel') },
    onConfirm,
  });
}

/** Create a pension with its beneficiaries (`…/new`), or edit its resolution, account and beneficiaries (`…/:id/edit`). */
export function PensionFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const can = useCan();
  const existing = usePension(id);
  const create = useCreatePension();
  const eligibility = useCheckEligibility();
  /** The reasons the last eligibility check refused the pension (nothing was saved). */
  const [refusals, setRefusals] = useState<EligibilityIssue[]>([]);
  const update = useUpdatePension(id ?? 0);
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: empty,
    validate: (values) => validateForm(values, !!id),
    validateInputOnChange: ['cui', 'monthlyAmount', 'bankAccount'],
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: load the record once when it arrives.
  useEffect(() => {
    if (existing.data) form.setValues(fromPension(existing.data));
  }, [existing.data]);

  if (!(id ? can('passive-classes', 'UPDATE') : can('passive-classes', 'CREATE'))) return <NotAuthorizedPage />;
  if (id && !existing.data) return <QueryState query={existing}>{null}</QueryState>;

  const fields = [
    ...Object.keys(empty),
    ...form.values.beneficiaries.flatMap((_, i) =>
      ['cui', 'fullName', 'birthDate', 'relationship', 'share', 'studyCertificateUntil'].map((f) => `beneficiaries.${i}.${f}`),
    ),
  ];
  const submit = form.onSubmit((values) => {
    const onError = (err: unknown) => showApiError(err, form, fields, { notify: 'always' });
    if (id) {
      const beneficiaries = beneficiariesOf(values);
      if (!beneficiaries) return;
      update.mutate(
        { resolutionNumber: values.resolutionNumber, bankAccount: values.bankAccount, beneficiaries },
        {
          onSuccess: (p) => {
            notifySuccess(t('pensions.form.updated'));
            navigate(`/contributors/passive-classes/${p.id}`);
          },
          onError,
        },
      );
    } else {
      const body = toInput(values);
      if (!body) return;
      const save = () =>
        create.mutate(body, {
          onSuccess: (p) => {
            notifySuccess(t('pensions.form.created'));
            navigate(`/contributors/passive-classes/${p.id}`);
          },
          onError,
        });
      setRefusals([]);
      // What the history says first: a refusal saves nothing, warnings are confirmed, else it is saved.
      eligibility.mutate(
        { cui: body.cui, type: body.type, startDate: body.startDate },
        {
          onSuccess: (e) => {
            const next = eligibilityStep(e);
            if (next.step === 'refuse') setRefusals(next.refusals);
            else if (next.step === 'confirm') confirmWarnings(t, body, e, next.warnings, save);
            else save();
          },
          onError,
        },
      );
    }
  });
  const locked = !!id;
  const listError = typeof form.errors.beneficiaries === 'string' ? form.errors.beneficiaries : null;

  return (
    <form onSubmit={submit} noValidate>
      <PageHeader title={id ? t('pensions.form.editTitle') : t('pensions.form.newTitle')} mb="md" />
      <Stack>
        {refusals.length > 0 && (
          <Alert color="red" title={t('pensions.eligibility.refusedTitle')} data-testid="eligibility-refused">
            <Text size="sm">{t('pensions.eligibility.refusedLead')}</Text>
            <List size="sm" mt={4}>
              {refusals.map((r) => (
                <List.Item key={`${r.code}-${r.message}`}>{messageText(r)}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Card withBorder>
          <Text fw={600} mb="sm">
            {t('pensions.form.pension')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('pensions.form.pensionerCui')}
              description={t('pensions.form.pensionerCuiHint')}
              required
              inputMode="numeric"
              disabled={locked}
              {...form.getInputProps('cui')}
            />
            <Select
              label={t('pensions.fields.type')}
              required
              disabled={locked}
              data={pensionTypes.map((v) => ({ value: v, label: pensionTypeLabels[v] }))}
              {...form.getInputProps('type')}
            />
            <TextInput
              label={t('pensions.fields.resolutionNumber')}
              required
              maxLength={60}
              {...form.getInputProps('resolutionNumber')}
            />
            <DateField
              label={t('pensions.fields.resolutionDate')}
              required
              disabled={locked}
              {...form.getInputProps('resolutionDate')}
            />
            <DateField label={t('pensions.fields.startDate')} required disabled={locked} {...form.getInputProps('startDate')} />
            <TextInput
              label={t('pensions.fields.monthlyAmount')}
              description={locked ? t('pensions.form.amountLocked') : undefined}
              required
              inputMode="decimal"
              disabled={locked}
              leftSection="Q"
              {...form.getInputProps('monthlyAmount')}
            />
            <TextInput label={t('pensions.fields.bankAccount')} required maxLength={30} {...form.getInputProps('bankAccount')} />
          </SimpleGrid>
        </Card>
        <Card withBorder>
          <Group justify="space-between" mb="sm">
            <div>
              <Text fw={600}>{t('pensions.beneficiaries.title')}</Text>
              <Text size="sm" c="dimmed">
                {t('pensions.beneficiaries.hint')}
              </Text>
            </div>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={() => form.insertListItem('beneficiaries', emptyBeneficiary())}
              disabled={form.values.beneficiaries.length >= 20}
            >
              {t('pensions.beneficiaries.add')}
            </Button>
          </Group>
          {listError && (
            <Alert color="red" mb="sm" data-testid="beneficiaries-error">
              {listError}
            </Alert>
          )}
          {form.values.beneficiaries.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('pensions.beneficiaries.none')}
            </Text>
          )}
          <Stack>
            {form.values.beneficiaries.map((b, i) => (
              <Card key={b.key} withBorder padding="sm" data-testid="beneficiary-row">
                <Group justify="space-between" mb="xs">
                  <Text size="sm" fw={600}>
                    {t('pensions.beneficiaries.number', { n: i + 1 })}
                  </Text>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('pensions.beneficiaries.remove', { n: i + 1 })}
                    onClick={() => form.removeListItem('beneficiaries', i)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                  <TextInput label="CUI" required inputMode="numeric" {...form.getInputProps(`beneficiaries.${i}.cui`)} />
                  <TextInput
                    label={t('pensions.beneficiaries.fullName')}
                    required
                    maxLength={150}
                    {...form.getInputProps(`beneficiaries.${i}.fullName`)}
                  />
                  <DateField
                    label={t('pensions.beneficiaries.birthDate')}
                    required
                    {...form.getInputProps(`beneficiaries.${i}.birthDate`)}
                  />
                  <Select
                    label={t('pensions.beneficiaries.relationship')}
                    required
                    data={relationships.map((v) => ({ value: v, label: relationshipLabels[v] }))}
                    {...form.getInputProps(`beneficiaries.${i}.relationship`)}
                  />
                  <TextInput
                    label={t('pensions.beneficiaries.share')}
                    required
                    inputMode="decimal"
                    rightSection="%"
                    {...form.getInputProps(`beneficiaries.${i}.share`)}
                  />
                  <DateField
                    label={t('pensions.beneficiaries.studyUntil')}
                    description={t('pensions.beneficiaries.studyHint')}
                    {...form.getInputProps(`beneficiaries.${i}.studyCertificateUntil`)}
                  />
                </SimpleGrid>
              </Card>
            ))}
          </Stack>
        </Card>
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => navigate(id ? `/contributors/passive-classes/${id}` : '/contributors/passive-classes')}
          >
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={eligibility.isPending || create.isPending || update.isPending}>
            {t('pensions.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
