import { dateSchema, type SurvivalMethod, survivalMethodLabels, survivalMethods } from '@aporta/domain';
import { FileInput, Modal, Progress, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPaperclip } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DateField } from '../../components/DateField.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { uploadAct, useRegisterCheck } from './api.ts';

const todayIso = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

// The act is uploaded on save, so the form checks the file itself rather than its id.
const formSchema = z
  .object({
    checkDate: dateSchema,
    method: z.string({ error: 'Elija la forma de presentación.' }).min(1, { error: 'Elija la forma de presentación.' }),
    notes: z.string().max(500, { error: 'Observaciones: máximo 500 caracteres.' }),
    file: z.instanceof(File).nullable(),
  })
  .superRefine((v, ctx) => {
    if (v.method === 'ACTA_NOTARIAL' && !v.file)
      ctx.addIssue({ code: 'custom', path: ['file'], message: 'Adjunte el acta notarial.' });
  });

type Values = {
  checkDate: string;
  method: SurvivalMethod | null;
  notes: string;
  file: File | null;
};

/**
 * Registers a pensioner's survival check: the day, how it was presented and, for a notarised act, the
 * document (uploaded first, then named in the check). A pension suspended for an overdue check is
 * reactivated by it, and its suspended months are flagged for payment (the server does both).
 */
export function CheckModal({ pension, onClose }: { pension: { id: number; fullName: string } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const register = useRegisterCheck(pension?.id ?? 0);
  const [progress, setProgress] = useState<number | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { checkDate: todayIso(), method: 'PRESENCIAL', notes: '', file: null },
    validate: zod4Resolver(formSchema),
  });
  const close = () => {
    form.reset();
    setProgress(null);
    onClose();
  };
  const submit = form.onSubmit(async (v) => {
    // The form's own check has named a missing method already.
    if (!v.method) return;
    try {
      let attachmentFileId: number | null = null;
      if (v.method === 'ACTA_NOTARIAL' && v.file) {
        setProgress(0);
        attachmentFileId = (await uploadAct(v.file, setProgress)).id;
      }
      const check = await register.mutateAsync({
        checkDate: v.checkDate,
        method: v.method,
        attachmentFileId,
        notes: v.notes || null,
      });
      notifySuccess(check.reactivated ? t('pensions.check.savedReactivated') : t('pensions.check.saved'));
      close();
    } catch (err) {
      setProgress(null);
      showApiError(err, form, ['checkDate', 'method', 'notes'], { notify: 'non-validation' });
    }
  });
  const busy = register.isPending || (progress !== null && progress < 1);
  return (
    <Modal opened={!!pension} onClose={close} title={t('pensions.check.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{pension?.fullName}</Text>
          <DateField label={t('pensions.check.date')} required {...form.getInputProps('checkDate')} />
          <Select
            label={t('pensions.check.method')}
            required
            allowDeselect={false}
            data={survivalMethods.map((m) => ({ value: m, label: survivalMethodLabels[m] }))}
            {...form.getInputProps('method')}
          />
          {form.values.method === 'ACTA_NOTARIAL' && (
            <FileInput
              label={t('pensions.check.act')}
              description={t('pensions.check.actHint')}
              accept="application/pdf,image/jpeg,image/png"
              required
              clearable
              leftSection={<IconPaperclip size={16} />}
              {...form.getInputProps('file')}
            />
          )}
          {progress !== null && <Progress value={progress * 100} aria-label={t('pensions.check.uploading')} />}
          <Textarea label={t('pensions.check.notes')} autosize minRows={2} maxLength={500} {...form.getInputProps('notes')} />
          <FormActions onCancel={close} submitLabel={t('pensions.check.save')} loading={busy} />
        </Stack>
      </form>
    </Modal>
  );
}
