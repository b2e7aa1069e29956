import type { ImportBatch } from '@aporta/domain';
import { Alert, Button, Card, FileInput, Group, List, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../lib/api.ts';
import { downloadFile } from '../lib/download.ts';
import { apiErrorText, notifyError } from '../lib/notify.ts';
import { messageText } from '../lib/server-messages.ts';
import { type ImportRowKind, ImportRowsTabs } from './ImportRowsTabs.tsx';
import { PageHeader } from './PageHeader.tsx';
import { SpanishDocumentHint } from './SpanishDocumentHint.tsx';

/**
 * The frame of a bulk-upload screen (contributors, planillas): the header with the template downloads
 * (xlsx, csv), one card with the screen's own fields (`before`), the file input and its validate button,
 * the upload's progress, the batch's status (`status`) and the refusal of the whole file; then a checked
 * batch's `results` (its counts, the decision buttons, its rows in two tabs) and the rest (`children`).
 * Words come from the feature's `<i18nPrefix>.*` keys: title, help, file, clearFile, validate, uploading,
 * uploadProgress, refused, templateXlsx, templateCsv, total, valid, errors, errorsTab, validTab,
 * downloadErrors.
 */
export function UploadPageFrame({
  i18nPrefix,
  templatePath,
  description,
  top,
  before,
  file,
  onFileChange,
  startDisabled,
  fraction,
  onStart,
  status,
  failure,
  results,
  children,
}: {
  i18nPrefix: string;
  /** GET route of the template, with `?format=xlsx|csv`. */
  templatePath: string;
  description?: string;
  /** Above the card (the user's unfinished uploads). */
  top?: ReactNode;
  /** Inside the card, above the file (what the upload is for: entity, period…). */
  before?: ReactNode;
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** Besides "no file": while a batch validates or commits, or the screen's fields are incomplete. */
  startDisabled: boolean;
  /** Fraction of the file sent (0–1) while it uploads, else null. */
  fraction: number | null;
  onStart: () => void;
  /** Inside the card, below the file: the batch's progress, outcome or failure. */
  status?: ReactNode;
  /** The whole file refused (nothing stored), with its reasons. */
  failure: ApiError | null;
  /** A checked batch: its counts, what the user may decide (`decision`), and its rows (exceptions first). */
  results?: {
    batch: ImportBatch;
    decision: ReactNode;
    exceptionsUrl: string;
    rows: (kind: ImportRowKind) => ReactNode;
  } | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const k = (key: string) => `${i18nPrefix}.${key}`;
  return (
    <Stack>
      <PageHeader title={t(k('title'))} description={description}>
        {(['xlsx', 'csv'] as const).map((format) => (
          <Button
            key={format}
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={() => downloadFile(templatePath, { format }).catch(notifyError)}
          >
            {t(k(format === 'xlsx' ? 'templateXlsx' : 'templateCsv'))}
          </Button>
        ))}
        <SpanishDocumentHint />
      </PageHeader>
      {top}
      <Card withBorder>
        {before}
        <Text size="sm" mt={before ? 'lg' : undefined} mb="sm">
          {t(k('help'))}
        </Text>
        <Group align="end">
          <FileInput
            label={t(k('file'))}
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            leftSection={<IconFileSpreadsheet size={16} />}
            value={file}
            onChange={onFileChange}
            clearable
            clearButtonProps={{ 'aria-label': t(k('clearFile')) }}
            w={360}
            maw="100%"
            data-testid="upload-file"
          />
          <Button
            leftSection={<IconUpload size={16} />}
            disabled={!file || startDisabled}
            loading={fraction !== null}
            onClick={onStart}
          >
            {t(k('validate'))}
          </Button>
        </Group>
        {fraction !== null && (
          <Stack gap={4} mt="md">
            <Text size="sm">{t(k('uploading'), { percent: Math.round(fraction * 100) })}</Text>
            <Progress value={fraction * 100} aria-label={t(k('uploadProgress'))} />
          </Stack>
        )}
        {status}
        {failure && (
          <Alert color="red" mt="md" title={t(k('refused'))} data-testid="upload-error">
            {apiErrorText(failure)}
            <ErrorDetails error={failure} />
          </Alert>
        )}
      </Card>
      {results && (
        <>
          <ImportCounts i18nPrefix={i18nPrefix} batch={results.batch} />
          {results.decision}
          <UploadRowsTabs
            i18nPrefix={i18nPrefix}
            batch={results.batch}
            exceptionsUrl={results.exceptionsUrl}
            rows={results.rows}
          />
        </>
      )}
      {children}
    </Stack>
  );
}

/** The reasons an API refusal names (`field: message`), the first `max` of them; nothing when there are none. */
export function ErrorDetails({ error, max = 50 }: { error: ApiError; max?: number }) {
  if (!error.details.length) return null;
  return (
    <List size="sm" mt="xs">
      {error.details.slice(0, max).map((d) => (
        <List.Item key={`${d.path}-${d.message}`}>
          {d.path}: {messageText(d)}
        </List.Item>
      ))}
    </List>
  );
}

/** An upload's rows in their two tabs (ImportRowsTabs) with the feature's `<i18nPrefix>.*` words. */
function UploadRowsTabs({
  i18nPrefix,
  batch,
  exceptionsUrl,
  rows,
}: {
  i18nPrefix: string;
  batch: ImportBatch;
  exceptionsUrl: string;
  rows: (kind: ImportRowKind) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <ImportRowsTabs
      batch={batch}
      exceptionsUrl={exceptionsUrl}
      labels={{
        errorsTab: t(`${i18nPrefix}.errorsTab`, { count: batch.errorRows }),
        validTab: t(`${i18nPrefix}.validTab`, { count: batch.validRows }),
        downloadErrors: t(`${i18nPrefix}.downloadErrors`),
      }}
      rows={rows}
    />
  );
}

/** The rows of a validated upload: total, valid (green) and with errors (red), as three cards. */
function ImportCounts({ i18nPrefix, batch }: { i18nPrefix: string; batch: ImportBatch }) {
  const { t } = useTranslation();
  const cards = [
    ['total', batch.totalRows, undefined, undefined],
    ['valid', batch.validRows, 'green.9', 'upload-valid'],
    ['errors', batch.errorRows, 'red.9', 'upload-errors'],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {cards.map(([key, count, color, testId]) => (
        <Card withBorder key={key}>
          <Text size="sm">{t(`${i18nPrefix}.${key}`)}</Text>
          <Text fw={700} fz="xl" c={color} data-testid={testId}>
            {count}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
