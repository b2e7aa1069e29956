import { Button, Group } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypeCsv, IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueryRecord } from '../lib/api.ts';
import { downloadFile } from '../lib/download.ts';
import { type JobPath, startJob } from '../lib/jobs.ts';
import { notifyError } from '../lib/notify.ts';
import { SpanishDocumentHint } from './SpanishDocumentHint.tsx';

export type ExportFormat = 'xlsx' | 'csv' | 'pdf';

const icons = { xlsx: IconFileSpreadsheet, csv: IconFileTypeCsv, pdf: IconFileTypePdf } as const;
const labels = { xlsx: 'common.exportXlsx', csv: 'common.exportCsv', pdf: 'common.exportPdf' } as const;

/**
 * Export buttons of a list or report: each downloads `path?format=…` with the screen's current
 * filters (`query`), showing a loader while it runs and a notification if it fails. With `background`,
 * a list that can grow without bound (contributors) starts a job instead (POST `background.path`) and
 * the screen shows its progress (<JobProgress>); see docs/decisions.md for which lists do.
 */
export function ExportButtons({
  path,
  query,
  formats = ['xlsx', 'csv'],
  background,
}: {
  path: string;
  query: QueryRecord;
  formats?: readonly ExportFormat[];
  background?: { path: JobPath; onStarted: (jobId: number) => void };
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      if (background) {
        background.onStarted(await startJob(background.path, { ...query, format }));
      } else {
        await downloadFile(path, { ...query, format });
      }
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="xs">
      {formats.map((format) => {
        const Icon = icons[format];
        return (
          <Button
            key={format}
            variant="default"
            leftSection={<Icon size={16} />}
            loading={busy === format}
            onClick={() => run(format)}
          >
            {t(labels[format])}
          </Button>
        );
      })}
      <SpanishDocumentHint />
    </Group>
  );
}
