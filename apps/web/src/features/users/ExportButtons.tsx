import { Button, Group } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, buildUrl, type RequestOptions } from '../../lib/api.ts';
import { notifyError } from '../../lib/notify.ts';
import { getToken } from '../../lib/session.ts';

/** Downloads an export with the bearer token and the list's current filters (a plain link could not send the token). */
async function download(path: string, query: RequestOptions['query'], format: 'xlsx' | 'csv') {
  const res = await fetch(buildUrl(path, { ...query, format }), { headers: { authorization: `Bearer ${getToken() ?? ''}` } });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    throw new ApiError(
      res.status,
      (body?.error?.code ?? 'INTERNAL') as 'INTERNAL',
      body?.error?.message ?? `Error ${res.status}`,
    );
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `export.${format}`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ExportButtons({ path, query }: { path: string; query: RequestOptions['query'] }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'xlsx' | 'csv' | null>(null);
  const run = (format: 'xlsx' | 'csv') => {
    setBusy(format);
    download(path, query, format)
      .catch(notifyError)
      .finally(() => setBusy(null));
  };
  return (
    <Group gap="xs">
      <Button
        variant="default"
        leftSection={<IconFileSpreadsheet size={16} />}
        loading={busy === 'xlsx'}
        onClick={() => run('xlsx')}
      >
        {t('users.exportXlsx')}
      </Button>
      <Button variant="default" leftSection={<IconFileTypeCsv size={16} />} loading={busy === 'csv'} onClick={() => run('csv')}>
        {t('users.exportCsv')}
      </Button>
    </Group>
  );
}
