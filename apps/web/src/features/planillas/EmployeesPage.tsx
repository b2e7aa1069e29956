import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ListColumn, type ListFilter, ListPage } from '../../components/ListPage.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { entityOptions } from '../../lib/options.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type PlanillaEmployee, usePlanillaEmployees } from './api.ts';

/** `/planilla/empleados`: the employees an entity declared over time; one CUI across entities. */
export function EmployeesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const options = usePlanillaOptions(can('planillas', 'READ'));
  const filters: ListFilter[] = [
    {
      name: 'entityId',
      label: t('planillas.fields.entity'),
      kind: 'reference',
      options: entityOptions(options.data?.entities),
    },
    { name: 'cui', label: 'CUI', kind: 'cui' },
  ];
  const columns: ListColumn<PlanillaEmployee>[] = [
    { accessor: 'cui', title: 'CUI', kind: 'cui' },
    {
      accessor: 'fullName',
      title: t('planillas.fields.fullName'),
      render: (e) => <Link to={`/planilla/historial-cuotas-laborales?cui=${e.cui}`}>{e.fullName}</Link>,
    },
    { accessor: 'entityName', title: t('planillas.fields.entity') },
    { accessor: 'firstPeriod', title: t('planillas.employees.first'), render: (e) => <Period value={e.firstPeriod} /> },
    { accessor: 'lastPeriod', title: t('planillas.employees.last'), render: (e) => <Period value={e.lastPeriod} /> },
    { accessor: 'months', title: t('planillas.employees.months'), textAlign: 'right' },
    {
      accessor: 'lastSalary',
      title: t('planillas.employees.lastSalary'),
      textAlign: 'right',
      render: (e) => <Money value={e.lastSalary} />,
    },
  ];
  return (
    <ListPage<PlanillaEmployee>
      title={t('planillas.employees.title')}
      description={t('planillas.employees.description')}
      defaultSort="-lastPeriod"
      searchLabel={t('planillas.lines.search')}
      filters={filters}
      columns={columns}
      idAccessor="cui"
      useRows={usePlanillaEmployees}
      emptyText={t('planillas.employees.empty')}
    />
  );
}
