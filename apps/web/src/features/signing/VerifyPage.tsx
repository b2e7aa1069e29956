import type { VerificationReport } from '@aporta/domain/signing';
import { Alert, Badge, Button, Card, FileInput, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError } from '../../lib/notify.ts';
import { verifyPdf } from './api.ts';

/** /firmaDoc/verificar: anyone signed in uploads a signed PDF and sees each signature. */
export function VerifyPage() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<VerificationReport | null>(null);
  const [busy, setBusy] = useState(false);
  const ok = (v: boolean, yes: string, no: string) => (
    <Badge color={v ? 'green' : 'red'} variant="light" c="var(--mantine-color-text)">
      {v ? yes : no}
    </Badge>
  );
  return (
    <>
      <PageHeader title={t('signing.verify.title')} description={t('signing.verify.intro')} mb="md" />
      <Group align="end" mb="md">
        <FileInput label={t('signing.upload.file')} accept="application/pdf" value={file} onChange={setFile} w={320} />
        <Button
          disabled={!file}
          loading={busy}
          onClick={async () => {
            if (!file) return;
            setBusy(true);
            try {
              setReport(await verifyPdf(file));
            } catch (e) {
              notifyError(e);
            } finally {
              setBusy(false);
            }
          }}
        >
          {t('signing.verify.check')}
        </Button>
      </Group>
      {report && report.signatures.length === 0 && <Alert color="gray">{t('signing.verify.none')}</Alert>}
      <Stack>
        {report?.signatures.map((s) => (
          <Card withBorder key={s.index}>
            <Text fw={600}>{t('signing.verify.signature', { n: s.index, name: s.signer })}</Text>
            <Text size="sm" c="dimmed">
              {s.subject} · {s.signingTime ? formatDateTime(s.signingTime) : t('signing.verify.noTime')}
              {s.reason ? ` · ${s.reason}` : ''}
            </Text>
            <Group gap="xs" mt="xs">
              {ok(s.intact, t('signing.verify.intact'), t('signing.verify.broken'))}
              {ok(!s.modifiedAfter, t('signing.verify.unchanged'), t('signing.verify.changed'))}
              {ok(s.chainTrusted, t('signing.verify.trusted'), t('signing.verify.untrusted'))}
              {ok(!s.revoked, t('signing.verify.notRevoked'), t('signing.verify.revoked'))}
            </Group>
            <Text size="sm" mt="xs">
              {s.timestamp
                ? t(s.timestamp.matches ? 'signing.verify.timestamp' : 'signing.verify.timestampMismatch', {
                    time: s.timestamp.time ? formatDateTime(s.timestamp.time) : '—',
                    authority: s.timestamp.authority || '—',
                  })
                : t('signing.verify.noTimestamp')}
            </Text>
            {s.chain.length > 0 && (
              <Text size="xs" mt="xs">
                {t('signing.verify.chain')}: {s.chain.join(' → ')}
              </Text>
            )}
          </Card>
        ))}
      </Stack>
    </>
  );
}
