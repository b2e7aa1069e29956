import { formatDay } from '@aporta/domain';
import { Alert, Badge, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { IconCertificate, IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { errorText, notifySuccess } from '../../lib/notify.ts';
import { entityOptions } from '../../lib/options.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { downloadCertificatePdf, useCertificates, useIssueCertificate } from './api.ts';

const statusColor = { VIGENTE: 'teal', VENCIDA: 'gray', REVOCADA: 'red', SIN_EFECTO: 'red' } as const;

/** Solvency certificates: issue one to an entity "al día" (refused with the reason otherwise), list and PDFs. */
export function CertificatesPanel({ entityId: fixed }: { entityId?: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const options = usePlanillaOptions(!fixed && can('planillas', 'READ'));
  const [chosen, setChosen] = useState<number | null>(null);
  const entityId = fixed ?? chosen;
  const list = useCertificates(fixed ?? null);
  const issue = useIssueCertificate();
  const [refusal, setRefusal] = useState<string | null>(null);
  const pdf = (id: number) => downloadCertificatePdf(id).catch((e) => showApiError(e));
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
              }}
              w={{ base: '100%', sm: 420 }}
            />
          )}
          <Button
            leftSection={<IconCertificate size={16} />}
            disabled={!entityId}
            loading={issue.isPending}
            onClick={() =>
              entityId &&
              issue.mutate(entityId, {
                onSuccess: (c) => {
                  setRefusal(null);
                  notifySuccess(t('financial.issued', { code: c.code }));
                  void pdf(c.id);
                },
                onError: (err) => setRefusal(errorText(err)),
              })
            }
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
