import { Alert, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One fact of what an action will do: what, how much, to whom. */
export type SummaryFact = { label: string; value: ReactNode; testId?: string };

/**
 * The body of a confirmation before an action that moves money or issues a document (opened with
 * `openConfirm` of lib/confirm.ts): one sentence saying what will happen, the facts it acts on (entity,
 * period, lines, amounts) as a two-column table, the warnings the user should weigh (red), and what the
 * action creates. The screen words each part; this only lays them out the same way everywhere.
 */
export function ConfirmSummary({
  lead,
  facts,
  warnings,
  creates,
}: {
  lead: ReactNode;
  facts: SummaryFact[];
  warnings?: ReactNode;
  creates?: ReactNode;
}) {
  return (
    <Stack gap="sm" data-testid="confirm-summary">
      <Text size="sm">{lead}</Text>
      {facts.length > 0 && (
        <Table withRowBorders={false} verticalSpacing={4} horizontalSpacing="xs">
          <Table.Tbody>
            {facts.map((f) => (
              <Table.Tr key={f.label}>
                <Table.Th scope="row" fw={400} c="dimmed" fz="sm" w="45%">
                  {f.label}
                </Table.Th>
                <Table.Td fz="sm" fw={600} data-testid={f.testId}>
                  {f.value}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {warnings && (
        <Alert color="red" variant="light" p="xs" data-testid="confirm-warnings">
          {warnings}
        </Alert>
      )}
      {creates && (
        <Text size="sm" c="dimmed" data-testid="confirm-creates">
          {creates}
        </Text>
      )}
    </Stack>
  );
}
