import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { initI18n } from './lib/i18n.ts';
import { router } from './router.tsx';
import { useLayoutSettings } from './shell/settings/layoutStore.ts';
import { cssVariablesResolver, themes } from './theme.ts';

await initI18n();

/**
 * Theme and light/dark mode come from the user's layout settings (localStorage first, then server).
 * The query cache, dialogs and toasts are provided by shell/AppProviders.tsx, past the sign-in page.
 */
function App() {
  const settings = useLayoutSettings();
  return (
    <MantineProvider theme={themes[settings.theme]} cssVariablesResolver={cssVariablesResolver} forceColorScheme={settings.mode}>
      <RouterProvider router={router} />
    </MantineProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
