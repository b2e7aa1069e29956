import type { DocumentVerification } from '@aporta/domain';
import { Alert, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PublicVerifyPage } from '../../components/PublicVerifyPage.tsx';
import { formatDateTime, ltr } from '../../lib/format.ts';
import { verifyDocument } from './api.ts';

/**
 * `/verificar` (no session): what the QR in the corner of every PDF Aporta generates opens; it verifies at
 * once (components/PublicVerifyPage). Tells only what the paper itself prints — title, date, pages — and the
 * SHA-256 a digital copy must have. Machines keep the JSON route GET /api/documents/verify/:code.
 */
export function VerifyDocumentPage() {
  const { t } = useTranslation();
  return (
    <PublicVerifyPage
      texts={{
        title: t('documents.verify.title'),
        help: t('documents.verify.help'),
        code: t('documents.verify.code'),
        check: t('documents.verify.check'),
        checking: t('documents.verify.checking'),
      }}
      errorTitle={t('documents.verify.notFound')}
      verify={verifyDocument}
      result={(result: DocumentVerification) => (
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
    />
  );
}
