import { planillaStates, planillaTypes } from '@aporta/domain';
import { Button } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type ListColumn, type ListFilter, ListPage } from '../../components/ListPage.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { entityOptions } from '../../lib/options.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type Planilla, useFindPlanillas, useReviewQueue, useSearchPlanillas } from './api.ts';
import { PlanillaStateBadge } from './components.tsx';

type Variant = 'list' | 'search' | 'review';
const listKey: Record<Variant, string> = { list: 'all', search: 'find', review: 'review' };

const hooks = { list: useFindPlanillas, search: useSearchPlanillas, review: useReviewQueue } satisfies Record<Variant, unknown>;

/** The planillas lists: `/planilla/vista` (all in scope), `/contributors/buscar-planillas` (with a CUI), the delegate's queue. */
function PlanillaList({ variant }: { variant: Variant }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const options = usePlanillaOptions(can('planillas', 'READ'));
  const filters: ListFilter[] = [
    {
      name: 'entityId',
      label: t('planillas.fields.entity'),
      kind: 'reference',
      options: entityOptions(options.data?.entities),
    },
    { name: 'period', label: t('planillas.fields.period'), kind: 'period', w: { base: '100%', sm: 150 } },
    ...(variant === 'review'
      ? []
      : [
          {
            name: 'state',
            label: t('planillas.fields.state'),
            kind: 'enum' as const,
            options: planillaStates.map((s) => ({ value: s, label: t(`planillas.states.${s}`) })),
            w: { base: '100%', sm: 160 },
          },
          {
            name: 'type',
            label: t('planillas.fields.type'),
            kind: 'enum' as const,
            options: planillaTypes.map((s) => ({ value: s, label: t(`planillas.types.${s}`) })),
            w: { base: '100%', sm: 170 },
          },
        ]),
    ...(variant === 'search' ? [{ name: 'cui', label: t('planillas.fields.cuiInLines'), kind: 'cui' as const }] : []),
  ];
  const columns: ListColumn<Planilla>[] = [
    {
      accessor: 'entity',
      title: t('planillas.fields.entity'),
      sortable: true,
      render: (p) => <Link to={`/planilla/vista/${p.id}`}>{p.entityName}</Link>,
    },
    { accessor: 'period', title: t('planillas.fields.period'), sortable: true, render: (p) => <Period value={p.period} /> },
    { accessor: 'type', title: t('planillas.fields.type'), render: (p) => t(`planillas.types.${p.type}`) },
    {
      accessor: 'state',
      title: t('planillas.fields.state'),
      sortable: true,
      render: (p) => <PlanillaStateBadge state={p.state} />,
    },
    { accessor: 'lineCount', title: t('planillas.fields.employees'), sortable: true, textAlign: 'right' },
    { accessor: 'errorCount', title: t('planillas.fields.errors'), textAlign: 'right' },
    {
      accessor: 'totalEmployee',
      title: t('planillas.fields.employee'),
      sortable: true,
      textAlign: 'right',
      render: (p) => <Money value={p.totalEmployee} />,
    },
    {
      accessor: 'totalEmployer',
      title: t('planillas.fields.employer'),
      textAlign: 'right',
      render: (p) => <Money value={p.totalEmployer} />,
    },
    ...(variant === 'review'
      ? [{ accessor: 'submittedAt', title: t('planillas.fields.submittedAt'), sortable: true, kind: 'datetime' as const }]
      : []),
  ];
  return (
    <ListPage<Planilla>
      title={t(`planillas.lists.${listKey[variant]}.title`)}
      description={t(`planillas.lists.${listKey[variant]}.description`)}
      defaultSort={variant === 'review' ? 'submittedAt' : '-period'}
      searchLabel={t('planillas.lists.search')}
      searchPlaceholder={t('planillas.lists.searchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={hooks[variant]}
      exportPath={variant !== 'review' && can('planillas', 'EXPORT') ? '/api/planillas/export' : null}
      actions={
        variant === 'list' &&
        can('planilla-upload', 'CREATE') && (
          <Button component={Link} to="/planilla/carga" leftSection={<IconUpload size={16} />}>
            {t('planillas.upload.title')}
          </Button>
        )
      }
      emptyText={t(`planillas.lists.${listKey[variant]}.empty`)}
      onRowClick={(p) => navigate(`/planilla/vista/${p.id}`)}
    />
  );
}

export const PlanillaListPage = () => <PlanillaList variant="list" />;
export const PlanillaSearchPage = () => <PlanillaList variant="search" />;
export const ReviewQueuePage = () => <PlanillaList variant="review" />;
