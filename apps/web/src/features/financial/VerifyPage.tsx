import type { SolvencyVerification } from '@aporta/domain';
import { Alert, Button, Card, Container, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatIsoDate } from '../../lib/dates.ts';
import { errorText } from '../../lib/notify.ts';
import { verifyCode } from './api.ts';

/** How each state shows: only a valid certificate is green; one that no longer holds is red, with its reason. */
const statusColor: Record<SolvencyVerification['status'], string> = {
  VIGENTE: 'teal',
  VENCIDA: 'orange',
  REVOCADA: 'red',
  SIN_EFECTO: 'red',
};

/**
 * `/verificar-constancia` (no session): whoever holds a solvency certificate types its code (or arrives from
 * its QR) and learns whether it is genuine and still valid — computed now from what it rests on, with the
 * reason when it no longer holds — and nothing beyond what the certificate prints.
 */
export function VerifyPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const [code, setCode] = useState(search.get('codigo') ?? '');
  const [result, setResult] = useState<SolvencyVerification | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const check = async () => {
    setBusy(true);
    setResult(null);
    setError(null);
    try {
      setResult(await verifyCode(code));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Container size="sm" py="xl">
      <Stack component="main">
        <Title order={1}>{t('financial.verify.title')}</Title>
        <Text c="dimmed">{t('financial.verify.help')}</Text>
        <Card withBorder>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (code.trim()) void check();
            }}
          >
            <Group align="flex-end">
              <TextInput
                label={t('financial.verify.code')}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                placeholder="XXXX-XXXX-XXXX-XXXX"
                maxLength={40}
                w={{ base: '100%', sm: 300 }}
              />
              <Button type="submit" loading={busy} disabled={!code.trim()}>
                {t('financial.verify.check')}
              </Button>
            </Group>
          </form>
        </Card>
        {error && (
          <Alert color="red" data-testid="verify-result">
            {error}
          </Alert>
        )}
        {result && (
          <Alert color={statusColor[result.status]} data-testid="verify-result">
            <Text fw={700} data-status={result.status}>
              {t(`financial.verify.status.${result.status}`)}
            </Text>
            {result.statusReason && (
              <Text data-testid="verify-reason">
                {t('financial.verify.reason')}: {result.statusReason}
              </Text>
            )}
            <Text>
              {result.entityName} ({result.entityCode})
            </Text>
            <Text>
              {t('financial.verify.dates', { issued: formatIsoDate(result.issuedOn), until: formatIsoDate(result.validUntil) })}
            </Text>
            <Text size="sm">
              {t('financial.code')}: {result.code}
            </Text>
          </Alert>
        )}
      </Stack>
    </Container>
  );
}
