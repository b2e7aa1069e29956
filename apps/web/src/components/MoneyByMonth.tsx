import { BarChart } from '@mantine/charts';
import { Table } from '@mantine/core';
import { Money, Period } from './Money.tsx';

/** One amount per month: its column in the table, and a bar of `color` in the chart when it has one. */
export interface MonthAmount<R> {
  key: string;
  label: string;
  value: (row: R) => string;
  color?: string;
}

/**
 * Amounts by month: bars to see the trend and, below them, the table with the exact amounts. The bars
 * only draw the amounts (a chart's height needs a number, never used for sums); the table is what is read.
 */
export function MoneyByMonth<R>({
  rows,
  period,
  periodLabel,
  amounts,
}: {
  rows: readonly R[];
  /** The row's month, `AAAA-MM`. */
  period: (row: R) => string;
  periodLabel: string;
  amounts: MonthAmount<R>[];
}) {
  const drawn = amounts.filter((a) => a.color);
  return (
    <>
      <BarChart
        h={240}
        data={rows.map((r) => ({
          period: period(r),
          ...Object.fromEntries(drawn.map((a) => [a.key, Number(a.value(r))])),
        }))}
        dataKey="period"
        series={drawn.map((a) => ({ name: a.key, label: a.label, color: a.color as string }))}
        withLegend
      />
      <Table.ScrollContainer minWidth={420} mt="sm">
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{periodLabel}</Table.Th>
              {amounts.map((a) => (
                <Table.Th key={a.key} ta="right">
                  {a.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={period(r)}>
                <Table.Td>
                  <Period value={period(r)} />
                </Table.Td>
                {amounts.map((a) => (
                  <Table.Td key={a.key} ta="right">
                    <Money value={a.value(r)} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
