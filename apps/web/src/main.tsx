import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { initI18n } from './lib/i18n.ts';
import { notificationsProps } from './lib/notify.ts';
import { queryClient } from './lib/query.ts';
import { router } from './router.tsx';
import { useLayoutSettings } from './shell/settings/layoutStore.ts';
import { cssVariablesResolver, themes } from './theme.ts';

await initI18n();

/** Theme and light/dark mode come from the user's layout settings (localStorage first, then server). */
function App() {
  const { t } = useTranslation();
  const settings = useLayoutSettings();
  return (
    <MantineProvider theme={themes[settings.theme]} cssVariablesResolver={cssVariablesResolver} forceColorScheme={settings.mode}>
      <Notifications {...notificationsProps} />
      <QueryClientProvider client={queryClient}>
        <ModalsProvider labels={{ confirm: t('common.confirm'), cancel: t('common.cancel') }}>
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
