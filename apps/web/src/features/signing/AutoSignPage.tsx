import { documentTypeLabels, documentTypes } from '@aporta/domain/signing';
import { Button, Card, Group, Select, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JobProgress } from '../../components/JobProgress.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { useJob, useTrackedJob } from '../../lib/jobs.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { startBatch, useFolders, useRuleAction, useRules } from './api.ts';

/** /firmaAutomatica: rules that seal generated documents, and batch sealing of library documents as a job. */
export function AutoSignPage() {
  const { t } = useTranslation();
  const can = useCan();
  const maySign = can('auto-signature', 'SIGN');
  const rules = useRules();
  const act = useRuleAction();
  const folders = useFolders(null);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<string | null>(null);
  const [folderId, setFolderId] = useState<string | null>(null);
  const [docType, setDocType] = useState<string | null>(null);
  const [q, setQ] = useState('');
  const [jobId, setJobId] = useTrackedJob('signing-batch');
  const [starting, setStarting] = useState(false);
  const labelOf = (k: string) => rules.data?.kinds.find((x) => x.kind === k)?.label ?? k;
  return (
    <>
      <PageHeader title={t('signing.auto.title')} description={t('signing.auto.intro')} mb="md" />
      <QueryState query={rules}>
        <Card withBorder mb="lg">
          <Title order={2} size="h4" mb="sm">
            {t('signing.auto.rules')}
          </Title>
          {rules.data?.items.length ? (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('signing.auto.name')}</Table.Th>
                  <Table.Th>{t('signing.auto.kind')}</Table.Th>
                  <Table.Th>{t('signing.auto.active')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rules.data.items.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>{labelOf(r.documentKind)}</Table.Td>
                    <Table.Td>
                      <Switch
                        aria-label={t('signing.auto.active')}
                        checked={r.isActive}
                        disabled={!maySign}
                        onChange={(e) =>
                          act.mutate({ kind: 'toggle', id: r.id, isActive: e.currentTarget.checked }, { onError: notifyError })
                        }
                      />
                    </Table.Td>
                    <Table.Td>
                      {maySign && (
                        <Button
                          size="xs"
                          color="red"
                          variant="subtle"
                          onClick={() =>
                            openConfirm({
                              title: t('signing.auto.deleteTitle'),
                              children: <Text size="sm">{t('signing.auto.deleteText', { name: r.name })}</Text>,
                              labels: { confirm: t('signing.auto.delete'), cancel: t('common.cancel') },
                              confirmProps: { color: 'red' },
                              onConfirm: () => act.mutate({ kind: 'delete', id: r.id }, { onError: notifyError }),
                            })
                          }
                        >
                          {t('signing.auto.delete')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text c="dimmed">{t('signing.auto.noRules')}</Text>
          )}
          {maySign && (
            <Group mt="md" align="end">
              <TextInput
                label={t('signing.auto.name')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                maxLength={120}
              />
              <Select
                label={t('signing.auto.kind')}
                data={(rules.data?.kinds ?? []).map((k) => ({ value: k.kind, label: k.label }))}
                value={kind}
                onChange={setKind}
                w={300}
              />
              <Button
                disabled={!name.trim() || !kind}
                loading={act.isPending}
                onClick={() =>
                  kind &&
                  act.mutate(
                    { kind: 'create', body: { name, documentKind: kind, isActive: true } },
                    {
                      onSuccess: () => {
                        setName('');
                        setKind(null);
                        notifySuccess(t('signing.auto.created'));
                      },
                      onError: (e) => showApiError(e),
                    },
                  )
                }
              >
                {t('signing.auto.add')}
              </Button>
            </Group>
          )}
        </Card>
      </QueryState>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t('signing.auto.batch')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t('signing.auto.batchIntro')}
        </Text>
        <Stack>
          <Group align="end">
            <Select
              label={t('signing.library.folder')}
              clearable
              data={(folders.data?.items ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
              value={folderId}
              onChange={setFolderId}
              w={240}
            />
            <Select
              label={t('signing.library.type')}
              clearable
              data={documentTypes.map((d) => ({ value: d, label: documentTypeLabels[d] }))}
              value={docType}
              onChange={setDocType}
              w={200}
            />
            <TextInput label={t('signing.search')} value={q} onChange={(e) => setQ(e.currentTarget.value)} w={200} />
            {maySign && (
              <Button
                loading={starting}
                onClick={async () => {
                  setStarting(true);
                  try {
                    const r = await startBatch({
                      folderId: folderId ? Number(folderId) : undefined,
                      docType: documentTypes.find((d) => d === docType),
                      q: q.trim() || undefined,
                    });
                    setJobId(r.jobId);
                  } catch (e) {
                    notifyError(e);
                  } finally {
                    setStarting(false);
                  }
                }}
              >
                {t('signing.auto.sealAll')}
              </Button>
            )}
          </Group>
          {jobId !== null && <JobProgress jobId={jobId} onDismiss={() => setJobId(null)} />}
          {jobId !== null && <BatchReport jobId={jobId} />}
        </Stack>
      </Card>
    </>
  );
}

/** What the batch sealed and, for each document that failed, why. */
function BatchReport({ jobId }: { jobId: number }) {
  const { t } = useTranslation();
  const job = useJob(jobId).data;
  const result =
    job?.state === 'DONE'
      ? (job.result as { sealed: number; failed: { id: number; title: string; reason: string }[] } | null)
      : null;
  if (!result) return null;
  return (
    <Stack gap={4}>
      <Text size="sm">{t('signing.auto.sealed', { count: result.sealed })}</Text>
      {result.failed.map((f) => (
        <Text key={f.id} size="sm" c="red">
          {f.title}: {f.reason}
        </Text>
      ))}
    </Stack>
  );
}
