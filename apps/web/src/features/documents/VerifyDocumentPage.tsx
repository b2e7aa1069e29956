import type { DocumentVerification } from '@aporta/domain';
import type { AppInfo } from '@aporta/domain/shell';
import { Alert, Box, Button, Card, Container, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDateTime, ltr } from '../../lib/format.ts';
import { errorText } from '../../lib/notify.ts';
import { publicAppInfo, verifyDocument } from './api.ts';

/** The installation's name and acronym (the brand the shell shows); also the window's title. */
function useBrand(): AppInfo | undefined {
  const [info, setInfo] = useState<AppInfo>();
  useEffect(() => {
    let live = true;
    publicAppInfo()
      .then((i) => {
        if (!live) return;
        setInfo(i);
        document.title = i.title;
      })
      .catch(() => undefined); // Without it the page still verifies, under the product's name.
    return () => {
      live = false;
    };
  }, []);
  return info;
}

/** The institution's mark and name, as the application's shell shows them (its title's initial in a tile). */
function InstitutionBrand({ title, acronym }: { title: string; acronym?: string }) {
  return (
    <Group gap="sm" wrap="nowrap" data-testid="verify-brand">
      <Box
        aria-hidden="true"
        w={44}
        h={44}
        bg="var(--mantine-primary-color-filled)"
        c="white"
        fw={800}
        fz={20}
        style={{ borderRadius: 12, display: 'grid', placeItems: 'center', flex: 'none' }}
      >
        {title.slice(0, 1).toUpperCase()}
      </Box>
      <Box>
        <Text fw={800} fz={22} lh={1.2} c="var(--mantine-primary-color-filled)">
          {title}
        </Text>
        {acronym && acronym !== title && (
          <Text size="sm" c="dimmed">
            {acronym}
          </Text>
        )}
      </Box>
    </Group>
  );
}

/**
 * `/verificar` (no session): what the QR in the corner of every PDF Aporta generates opens. Arriving with
 * `?codigo=…` it verifies at once (one step: no second click); anyone may also type a printed code. Tells
 * only what the paper itself prints — title, date, pages — and the SHA-256 a digital copy must have.
 * Machines keep the JSON route GET /api/documents/verify/:code.
 */
export function VerifyDocumentPage() {
  const { t } = useTranslation();
  const info = useBrand();
  const [search] = useSearchParams();
  const fromQr = search.get('codigo') ?? '';
  const [code, setCode] = useState(fromQr);
  const [result, setResult] = useState<DocumentVerification | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const check = useCallback(async (value: string) => {
    setBusy(true);
    setResult(null);
    setError(null);
    try {
      setResult(await verifyDocument(value));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }, []);

  // From the QR (or a link): the code is in the address, so the answer is shown without asking again.
  const checkedOnArrival = useRef(false);
  useEffect(() => {
    if (checkedOnArrival.current || !fromQr.trim()) return;
    checkedOnArrival.current = true;
    void check(fromQr);
  }, [fromQr, check]);

  return (
    <Container size="sm" py="xl">
      <Stack component="main">
        <InstitutionBrand title={info?.title ?? t('shell.appName')} acronym={info?.acronym} />
        <Title order={1}>{t('documents.verify.title')}</Title>
        <Text c="dimmed">{t('documents.verify.help')}</Text>
        <Card withBorder>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (code.trim()) void check(code);
            }}
          >
            <Group align="flex-end">
              <TextInput
                label={t('documents.verify.code')}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                placeholder="XXXX-XXXX-XXXX-XXXX"
                maxLength={40}
                w={{ base: '100%', sm: 300 }}
              />
              <Button type="submit" loading={busy} disabled={!code.trim()}>
                {t('documents.verify.check')}
              </Button>
            </Group>
          </form>
        </Card>
        {busy && !result && !error && (
          <Text c="dimmed" data-testid="verify-busy">
            {t('documents.verify.checking')}
          </Text>
        )}
        {error && (
          <Alert color="red" title={t('documents.verify.notFound')} data-testid="verify-result" data-status="DESCONOCIDO">
            {error}
          </Alert>
        )}
        {result && (
          <Alert color="teal" title={t('documents.verify.genuine')} data-testid="verify-result" data-status="AUTENTICO">
            <Stack gap={4}>
              <Text fw={700}>{result.title}</Text>
              <Text>
                {t('documents.verify.generated', { when: formatDateTime(result.generatedAt) })} ·{' '}
                {t('documents.verify.pages', { count: result.pages })}
              </Text>
              <Text size="sm">
                {t('documents.verify.code')}: {ltr(result.code)}
              </Text>
              <Text size="sm">{t('documents.verify.hashHelp')}</Text>
              <Text size="xs" ff="monospace" dir="ltr" style={{ wordBreak: 'break-all' }} data-testid="verify-sha256">
                SHA-256: {result.sha256}
              </Text>
            </Stack>
          </Alert>
        )}
        <Text ta="center" c="dimmed" size="xs" mt="md">
          © {new Date().getFullYear()} {info?.acronym ?? ''}
        </Text>
      </Stack>
    </Container>
  );
}
