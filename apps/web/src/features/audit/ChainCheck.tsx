import { Alert, Button, Code, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { errorText } from '../../lib/notify.ts';
import type { useVerifyAuditChain } from './api.ts';

type Verify = ReturnType<typeof useVerifyAuditChain>;

/** The button that verifies the audit log's hash chain (shown only to who may: `audit` READ over ALL). */
export function ChainCheckButton({ verify }: { verify: Verify }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="default"
      leftSection={<IconShieldCheck size={16} />}
      loading={verify.isPending}
      onClick={() => verify.mutate()}
      data-testid="audit-verify"
    >
      {t('audit.chain.verify')}
    </Button>
  );
}

/** The verification's answer: intact up to a row, or the first row changed, deleted or inserted out of band. */
export function ChainCheckResult({ verify }: { verify: Verify }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  if (verify.isPending) {
    return (
      <Text size="sm" c="dimmed">
        {t('audit.chain.checking')}
      </Text>
    );
  }
  if (verify.isError) {
    return (
      <Alert color="red" title={t('audit.chain.failed')}>
        {errorText(verify.error)}
      </Alert>
    );
  }
  const v = verify.data;
  if (!v) return null;
  const checkedAt = formatDateTime(v.checkedAt, lng);
  const pending = v.pendingRows > 0 ? t('audit.chain.pending', { rows: formatNumber(v.pendingRows, { language: lng }) }) : null;
  if (v.intact) {
    return (
      <Alert color="teal" title={t('audit.chain.intactTitle')} data-testid="audit-verify-result">
        <Stack gap={4}>
          <Text size="sm">
            {v.intactThroughId == null
              ? t('audit.chain.empty')
              : t('audit.chain.intact', { id: v.intactThroughId, rows: formatNumber(v.sealedRows, { language: lng }) })}
          </Text>
          {pending && <Text size="sm">{pending}</Text>}
          <Text size="xs" c="dimmed">
            {t('audit.chain.anchor', { at: checkedAt })} <Code style={{ wordBreak: 'break-all' }}>{v.headHash}</Code>
          </Text>
        </Stack>
      </Alert>
    );
  }
  const b = v.broken;
  const what = !b
    ? ''
    : b.kind === 'CHANGED'
      ? t('audit.chain.changed', { id: b.id })
      : b.kind === 'INSERTED'
        ? t('audit.chain.inserted', { id: b.id })
        : b.kind === 'HEAD'
          ? t('audit.chain.head')
          : b.id != null && b.missing === 1
            ? t('audit.chain.deletedOne', { id: b.id })
            : t('audit.chain.deleted', { rows: formatNumber(b.missing, { language: lng }), after: b.afterId ?? '—' });
  return (
    <Alert color="red" title={t('audit.chain.brokenTitle')} data-testid="audit-verify-result">
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {what}
        </Text>
        <Text size="sm">
          {v.intactThroughId == null ? t('audit.chain.noneIntact') : t('audit.chain.intactBefore', { id: v.intactThroughId })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('audit.chain.checkedAt', { at: checkedAt })}
        </Text>
      </Stack>
    </Alert>
  );
}
