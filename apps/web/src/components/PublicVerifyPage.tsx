import { Alert, Box, Button, Card, Container, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../lib/notify.ts';
import { useAppInfo } from '../lib/useAppInfo.ts';

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
 * The one public verification page (no session), branded with the institution: a printed document's
 * authenticity (`/verificar`) and a solvency certificate's standing (`/verificar-constancia`). Arriving from
 * a QR with `?codigo=…` it verifies at once — one step, no second click; anyone may also type a code.
 */
export function PublicVerifyPage<T>({
  texts,
  verify,
  result: renderResult,
  errorTitle,
}: {
  texts: { title: string; help: string; code: string; check: string; checking: string };
  verify: (code: string) => Promise<T>;
  result: (r: T) => ReactNode;
  errorTitle?: string;
}) {
  const { t } = useTranslation();
  const info = useAppInfo();
  const [search] = useSearchParams();
  const fromQr = search.get('codigo') ?? '';
  const [code, setCode] = useState(fromQr);
  const [result, setResult] = useState<{ value: T } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const check = useCallback(
    async (value: string) => {
      setBusy(true);
      setResult(null);
      setError(null);
      try {
        setResult({ value: await verify(value) });
      } catch (err) {
        setError(errorText(err));
      } finally {
        setBusy(false);
      }
    },
    [verify],
  );

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
        <Title order={1}>{texts.title}</Title>
        <Text c="dimmed">{texts.help}</Text>
        <Card withBorder>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (code.trim()) void check(code);
            }}
          >
            <Group align="flex-end">
              <TextInput
                label={texts.code}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                placeholder="XXXX-XXXX-XXXX-XXXX"
                maxLength={40}
                w={{ base: '100%', sm: 300 }}
              />
              <Button type="submit" loading={busy} disabled={!code.trim()}>
                {texts.check}
              </Button>
            </Group>
          </form>
        </Card>
        {busy && !result && !error && (
          <Text c="dimmed" data-testid="verify-busy">
            {texts.checking}
          </Text>
        )}
        {error && (
          <Alert color="red" title={errorTitle} data-testid="verify-result" data-status="DESCONOCIDO">
            {error}
          </Alert>
        )}
        {result && renderResult(result.value)}
        <Text ta="center" c="dimmed" size="xs" mt="md">
          © {new Date().getFullYear()} {info?.acronym ?? ''}
        </Text>
      </Stack>
    </Container>
  );
}
