import { Button, Card, Group, Tabs } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { downloadFile } from '../lib/download.ts';
import { notifyError } from '../lib/notify.ts';
import { SpanishDocumentHint } from './SpanishDocumentHint.tsx';

export type ImportRowKind = 'valid' | 'error';

/**
 * The rows of an upload checked by the import pipeline, in two tabs (exceptions first when there are any),
 * with the download of the exceptions as xlsx: the same review on every module's upload screen. The module
 * supplies its labels, the exceptions address and how it shows a page of rows of each kind.
 */
export function ImportRowsTabs({
  batch,
  exceptionsUrl,
  labels,
  rows,
}: {
  batch: { errorRows: number; validRows: number };
  exceptionsUrl: string;
  labels: { errorsTab: string; validTab: string; downloadErrors: string };
  rows: (kind: ImportRowKind) => ReactNode;
}) {
  return (
    <Card withBorder>
      <Tabs defaultValue={batch.errorRows ? 'error' : 'valid'}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="error">{labels.errorsTab}</Tabs.Tab>
          <Tabs.Tab value="valid">{labels.validTab}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="error">
          {batch.errorRows > 0 && (
            <Group gap="xs" mb="sm">
              <Button
                variant="light"
                leftSection={<IconDownload size={16} />}
                onClick={() => downloadFile(exceptionsUrl).catch(notifyError)}
              >
                {labels.downloadErrors}
              </Button>
              <SpanishDocumentHint />
            </Group>
          )}
          {rows('error')}
        </Tabs.Panel>
        <Tabs.Panel value="valid">{rows('valid')}</Tabs.Panel>
      </Tabs>
    </Card>
  );
}
