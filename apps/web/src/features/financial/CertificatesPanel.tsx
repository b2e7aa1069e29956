import { formatDay, guatemalaToday } from '@aporta/domain';
import { Alert, Badge, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { IconCertificate, IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmSummary } from '../../components/ConfirmSummary.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { formatDate } from '../../lib/format.ts';
import { errorText, notifySuccess } from '../../lib/notify.ts';
import { entityOptions } from '../../lib/options.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type Certificate, downloadCertificatePdf, useCertificates, useIssueCertificate } from './api.ts';

const statusColor = { VIGENTE: 'teal', VENCIDA: 'gray', REVOCADA: 'red', SIN_EFECTO: 'red' } as const;

/** Solvency certificates: issue one to an entity "al día" (refused with the reason otherwise), list and PDFs. */
export function CertificatesPanel({ entityId: fixed }: { entityId?: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const options = usePlanillaOptions(can('planillas', 'READ'));
  const [chosen, setChosen] = useState<number | null>(null);
  const entityId = fixed ?? chosen;
  const list = useCertificates(fixed ?? null);
  const issue = useIssueCertificate();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [issued, setIssued] = useState<Certificate | null>(null);
  const pdf = (id: number) => downloadCertificatePdf(id).catch((e) => showApiError(e));
  const entity =
    options.data?.entities.find((e) => e.id === entityId) ??
    (list.data?.items ?? [])
      .filter((c) => c.entityId === entityId)
      .map((c) => ({ id: c.entityId, name: c.entityName, code: c.entityCode }))[0];
  const doIssue = (id: number) =>
    issue.mutate(id, {
      onSuccess: (c) => {
        setRefusal(null);
        setIssued(c);
        notifySuccess(t('financial.issued', { code: c.code, entity: c.entityName }));
        void pdf(c.id);
      },
      onError: (err) => setRefusal(errorText(err)),
    });
  // Issuing a document: asked first, saying to whom, what it checks and what it creates.
  const confirmIssue = (id: number) =>
    openConfirm({
      title: t('financial.confirm.title'),
      size: 'lg',
      children: (
        <ConfirmSummary
          lead={entity ? t('financial.confirm.lead', { entity: entity.name }) : t('financial.confirm.leadNoName')}
          facts={[
            ...(entity ? [{ label: t('financial.entity'), value: `${entity.name} (${entity.code})` }] : []),
            { label: t('financial.confirm.document'), value: t('financial.confirm.documentValue') },
            { label: t('financial.issuedOn'), value: formatDate(guatemalaToday()) },
          ]}
          creates={t('financial.confirm.creates')}
        />
      ),
      labels: { confirm: t('financial.issue'), cancel: t('common.cancel') },
      onConfirm: () => doIssue(id),
    });
  return (
    <Stack data-testid="certificates">
      {can('financial-module', 'CREATE') && (
        <Group align="flex-end" wrap="wrap">
          {!fixed && (
            <Select
              label={t('financial.entity')}
              placeholder={t('financial.chooseEntity')}
              searchable
              data={entityOptions(options.data?.entities)}
              value={chosen ? String(chosen) : null}
              onChange={(v) => {
                setChosen(v ? Number(v) : null);
                setRefusal(null);
                setIssued(null);
              }}
              w={{ base: '100%', sm: 420 }}
            />
          )}
          <Button
            leftSection={<IconCertificate size={16} />}
            disabled={!entityId}
            loading={issue.isPending}
            onClick={() => entityId && confirmIssue(entityId)}
          >
            {t('financial.issue')}
          </Button>
        </Group>
      )}
      {refusal && (
        <Alert color="orange" data-testid="certificate-refused">
          {refusal}
        </Alert>
      )}
      {issued && !refusal && (
        <Alert color="teal" data-testid="certificate-issued" title={t('financial.result.title')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {t('financial.result.text', {
                code: issued.code,
                entity: issued.entityName,
                until: formatDate(issued.validUntil),
              })}
            </Text>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconFileTypePdf size={14} />}
              onClick={() => pdf(issued.id)}
              data-testid="certificate-issued-pdf"
            >
              {t('financial.result.pdf', { code: issued.code })}
            </Button>
          </Stack>
        </Alert>
      )}
      {(list.data?.items ?? []).length === 0 ? (
        <Text c="dimmed">{list.isPending ? t('financial.loading') : t('financial.noCertificates')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped data-testid="certificates-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('financial.code')}</Table.Th>
                <Table.Th>{t('financial.entity')}</Table.Th>
                <Table.Th>{t('financial.issuedOn')}</Table.Th>
                <Table.Th>{t('financial.validUntil')}</Table.Th>
                <Table.Th>{t('financial.status')}</Table.Th>
                <Table.Th>
                  <SpanishDocumentHint />
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(list.data?.items ?? []).map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td ff="monospace" data-testid="certificate-code">
                    {c.code}
                  </Table.Td>
                  <Table.Td>{c.entityName}</Table.Td>
                  <Table.Td>{formatDay(c.issuedOn)}</Table.Td>
                  <Table.Td>{formatDay(c.validUntil)}</Table.Td>
                  <Table.Td>
                    <Badge color={statusColor[c.status]} variant="light" c="var(--mantine-color-text)">
                      {t(`financial.statuses.${c.status}`)}
                    </Badge>
                    {c.statusReason && (
                      <Text size="xs" c="dimmed" maw={320}>
                        {c.statusReason}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="default" leftSection={<IconFileTypePdf size={14} />} onClick={() => pdf(c.id)}>
                      {t('financial.pdfShort')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
