import { Button, Group } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestOptions } from '../../lib/api.ts';
import { notifyError } from '../../lib/notify.ts';
import { downloadExport } from './download.ts';

/** xlsx and csv buttons exporting `path` with the list's current filters. */
export function ExportButtons({ path, query }: { path: string; query: RequestOptions['query'] }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'xlsx' | 'csv' | null>(null);
  const run = async (format: 'xlsx' | 'csv') => {
    setBusy(format);
    try {
      await downloadExport(path, { ...query, format });
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="xs">
      <Button
        variant="default"
        leftSection={<IconFileSpreadsheet size={16} />}
        loading={busy === 'xlsx'}
        onClick={() => run('xlsx')}
      >
        {t('catalogs.exportXlsx')}
      </Button>
      <Button variant="default" leftSection={<IconFileTypeCsv size={16} />} loading={busy === 'csv'} onClick={() => run('csv')}>
        {t('catalogs.exportCsv')}
      </Button>
    </Group>
  );
}
