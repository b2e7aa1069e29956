import type { SolvencyVerification } from '@aporta/domain';
import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PublicVerifyPage } from '../../components/PublicVerifyPage.tsx';
import { formatIsoDate } from '../../lib/dates.ts';
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
 * its QR, and it verifies at once: components/PublicVerifyPage) and learns whether it is genuine and still
 * valid — computed now from what it rests on, with the reason when it no longer holds — and nothing beyond
 * what the certificate prints.
 */
export function VerifyPage() {
  const { t } = useTranslation();
  return (
    <PublicVerifyPage
      texts={{
        title: t('financial.verify.title'),
        help: t('financial.verify.help'),
        code: t('financial.verify.code'),
        check: t('financial.verify.check'),
        checking: t('financial.verify.checking'),
      }}
      verify={verifyCode}
      result={(result: SolvencyVerification) => (
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
    />
  );
}
