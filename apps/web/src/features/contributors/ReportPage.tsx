import '@mantine/charts/styles.css';
import { contributorStates } from '@aporta/domain';
import { BarChart } from '@mantine/charts';
import { Card, Group, Select, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatMoneyDecimal } from '../../lib/format.ts';
import { useContributorOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type ContributorReportKind, type ContributorReportQuery, reportExportPaths, useContributorReport } from './api.ts';

type Kind = ContributorReportKind;
/** The filters the screen sets (a subset of the report's query). */
type Filters = Pick<ContributorReportQuery, 'entityId' | 'departmentId' | 'typeId' | 'state'>;

/** The screen (permission) of each report. */
const reportResource = {
  general: 'contributor-report-general',
  'by-municipality': 'contributor-report-municipality',
  'by-type': 'contributor-report-type',
} as const;

export function ReportPage({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  const can = useCan();
  const options = useContributorOptions();
  const [filters, setFilters] = useState<Filters>({});
  const report = useContributorReport(kind, filters);
  const { data } = report;
  const set = (k: keyof Filters) => (v: string | null) => setFilters((f) => ({ ...f, [k]: v ?? undefined }));
  const departments = [...new Map((options.data?.municipalities ?? []).map((m) => [m.departmentId, m.departmentName])).entries()];
  const chartRows = [...(data?.items ?? [])].sort((a, b) => b.total - a.total).slice(0, kind === 'by-municipality' ? 15 : 30);
  const num = (n: number) => n.toLocaleString('es-GT');
  return (
    <>
      <PageHeader title={t(`contributors.reports.${kind}`)} mb="md">
        {can(reportResource[kind], 'EXPORT') && (
          <ExportButtons path={reportExportPaths[kind]} query={filters} formats={['xlsx', 'pdf']} />
        )}
      </PageHeader>
      <Card withBorder mb="md">
        <Group grow align="end" wrap="wrap">
          <Select
            label={t('contributors.fields.entity')}
            data={(options.data?.entities ?? []).map((e) => ({ value: String(e.id), label: e.name }))}
            searchable
            clearable
            onChange={set('entityId')}
          />
          {kind !== 'by-type' && (
            <Select
              label={t('contributors.reports.department')}
              data={departments.map(([id, name]) => ({ value: String(id), label: name }))}
              searchable
              clearable
              onChange={set('departmentId')}
            />
          )}
          <Select
            label={t('contributors.fields.type')}
            data={(options.data?.types ?? []).map((x) => ({ value: String(x.id), label: x.name }))}
            clearable
            onChange={set('typeId')}
          />
          <Select
            label={t('contributors.fields.state')}
            data={contributorStates.map((s) => ({ value: s, label: t(`contributors.states.${s}`) }))}
            clearable
            onChange={set('state')}
          />
        </Group>
      </Card>
      <QueryState query={report} list>
        <Card withBorder mb="md">
          <Text fw={600} mb="sm">
            {kind === 'by-municipality' ? t('contributors.reports.chartTop') : t('contributors.reports.chart')}
          </Text>
          <BarChart
            h={280}
            data={chartRows.map((r) => ({ label: r.label, ACTIVO: r.ACTIVO, INACTIVO: r.INACTIVO, FALLECIDO: r.FALLECIDO }))}
            dataKey="label"
            type="stacked"
            series={[
              { name: 'ACTIVO', label: t('contributors.states.ACTIVO'), color: 'green.8' },
              { name: 'INACTIVO', label: t('contributors.states.INACTIVO'), color: 'gray.6' },
              { name: 'FALLECIDO', label: t('contributors.states.FALLECIDO'), color: 'dark.6' },
            ]}
            withLegend
          />
        </Card>
        <Card withBorder>
          <Table.ScrollContainer minWidth={600}>
            <Table striped data-testid="report-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t(`contributors.reports.group.${kind}`)}</Table.Th>
                  {kind === 'by-municipality' && <Table.Th>{t('contributors.reports.department')}</Table.Th>}
                  {contributorStates.map((s) => (
                    <Table.Th key={s} ta="right">
                      {t(`contributors.states.${s}`)}
                    </Table.Th>
                  ))}
                  <Table.Th ta="right">{t('contributors.overview.total')}</Table.Th>
                  <Table.Th ta="right">{t('contributors.reports.salaries')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(data?.items ?? []).map((r) => (
                  <Table.Tr key={r.key}>
                    <Table.Td>{r.label}</Table.Td>
                    {kind === 'by-municipality' && <Table.Td>{r.group}</Table.Td>}
                    {contributorStates.map((s) => (
                      <Table.Td key={s} ta="right">
                        {num(r[s])}
                      </Table.Td>
                    ))}
                    <Table.Td ta="right">{num(r.total)}</Table.Td>
                    <Table.Td ta="right">{formatMoneyDecimal(r.salaryTotal)}</Table.Td>
                  </Table.Tr>
                ))}
                {data && data.items.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={8}>{t('contributors.list.empty')}</Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
              {data && (
                <Table.Tfoot>
                  <Table.Tr fw={700}>
                    <Table.Td>{t('contributors.overview.total')}</Table.Td>
                    {kind === 'by-municipality' && <Table.Td />}
                    {contributorStates.map((s) => (
                      <Table.Td key={s} ta="right">
                        {num(data.totals[s])}
                      </Table.Td>
                    ))}
                    <Table.Td ta="right" data-testid="report-total">
                      {num(data.totals.total)}
                    </Table.Td>
                    <Table.Td ta="right">{formatMoneyDecimal(data.totals.salaryTotal)}</Table.Td>
                  </Table.Tr>
                </Table.Tfoot>
              )}
            </Table>
          </Table.ScrollContainer>
        </Card>
      </QueryState>
    </>
  );
}

export const GeneralReportPage = () => <ReportPage kind="general" />;
export const MunicipalityReportPage = () => <ReportPage kind="by-municipality" />;
export const TypeReportPage = () => <ReportPage kind="by-type" />;
