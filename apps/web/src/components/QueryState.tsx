import { Alert, Button, Center, Group, Loader, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api.ts';
import { apiErrorText } from '../lib/notify.ts';
import { NotAuthorizedPage } from './RequirePermission.tsx';

/** The part of a TanStack query result the states need (any useQuery result fits). */
export interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export const isForbidden = (err: unknown): boolean => err instanceof ApiError && err.status === 403;

/** The first failed query: a refusal (403) wins over other errors, which the page cannot fix either. */
const failed = (queries: QueryLike[]) => queries.find((q) => q.isError && isForbidden(q.error)) ?? queries.find((q) => q.isError);

/**
 * The one way a page shows the state of the data it loads: a refusal (403) is the "No autorizado"
 * page, a failed load an error with "Reintentar", loading a spinner; never an empty list in their
 * place. `list`: a list shows its own table while loading (mantine-datatable's `fetching`), so only
 * the refusal and the error replace it. Children render once every query has data (or is a list).
 */
export function QueryState({
  query,
  list = false,
  notFound,
  children,
}: {
  query: QueryLike | QueryLike[];
  list?: boolean;
  /** What a 404 shows instead of the generic error (e.g. "El afiliado no existe." and a way back). */
  notFound?: ReactNode;
  children: ReactNode | (() => ReactNode);
}) {
  const queries = Array.isArray(query) ? query : [query];
  const bad = failed(queries);
  if (bad) {
    if (isForbidden(bad.error)) return <NotAuthorizedPage />;
    if (notFound && bad.error instanceof ApiError && bad.error.status === 404) return <>{notFound}</>;
    return (
      <LoadError
        error={bad.error}
        onRetry={() => {
          for (const q of queries) if (q.isError) q.refetch();
        }}
      />
    );
  }
  if (!list && queries.some((q) => q.isPending)) return <Loading />;
  return <>{typeof children === 'function' ? children() : children}</>;
}

export function Loading() {
  const { t } = useTranslation();
  return (
    <Center py="xl" data-testid="loading">
      <Loader aria-label={t('ui.loading')} />
    </Center>
  );
}

/** A failed load with the server's message (in the user's language) and a retry button. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const message = error instanceof ApiError ? apiErrorText(error) : '';
  return (
    <Alert color="red" icon={<IconAlertTriangle size={20} />} title={t('ui.loadError')} role="alert" data-testid="load-error">
      {message && <Text size="sm">{message}</Text>}
      <Group mt="sm">
        <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={onRetry}>
          {t('ui.retry')}
        </Button>
      </Group>
    </Alert>
  );
}
