import { type Action, canOpenScreen, type Resource, scopeFor } from '@aporta/domain/permissions';
import { Button, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet } from 'react-router';
import { useCurrentUser } from '../lib/auth.ts';

/**
 * Client-side guard of a screen: without any permission on `resource` (or the given `action`) the
 * user sees "No autorizado" instead of the screen (its children, or the route's Outlet). Convenience only: the server refuses the calls anyway.
 */
export function RequirePermission({ resource, action, children }: { resource: Resource; action?: Action; children?: ReactNode }) {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  if (user.mustChangePassword) return <Navigate to="/auth/change-password" replace />;
  const allowed = action ? !!scopeFor(user.permissions, resource, action) : canOpenScreen(user.permissions, resource);
  // Without children it guards a layout route: the screen is its Outlet.
  return allowed ? (children ?? <Outlet />) : <NotAuthorizedPage />;
}

export function NotAuthorizedPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" py="xl" data-testid="not-authorized">
      <IconLock size={48} stroke={1.5} aria-hidden />
      <Title order={1}>{t('auth.notAuthorized')}</Title>
      <Text ta="center">{t('auth.notAuthorizedText')}</Text>
      <Button component={Link} to="/">
        {t('common.backHome')}
      </Button>
    </Stack>
  );
}
