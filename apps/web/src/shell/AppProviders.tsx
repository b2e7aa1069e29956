import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { endSessionOnUnauthorized } from '../lib/auth.ts';
import { notificationsProps } from '../lib/notify.ts';
import { queryClient } from '../lib/query.ts';

// What a 401 does (forget the session, back to sign-in), set before any authenticated call.
endSessionOnUnauthorized();

/**
 * What every screen past the sign-in page needs: the query cache, confirmation dialogs and toasts.
 * A layout route loaded on demand, so the sign-in page does not download TanStack Query, the modal
 * manager or the notification list (bench/login-bundle.mjs). The cache is the one `queryClient`, so
 * it survives moving between the sign-in layout's pages and the main layout.
 */
export function AppProviders() {
  const { t } = useTranslation();
  return (
    <QueryClientProvider client={queryClient}>
      <ModalsProvider labels={{ confirm: t('common.confirm'), cancel: t('common.cancel') }}>
        <Notifications {...notificationsProps} />
        <Outlet />
      </ModalsProvider>
    </QueryClientProvider>
  );
}
