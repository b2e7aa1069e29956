import { useTranslation } from 'react-i18next';
import { SettingsPage } from './SettingsPage.tsx';

/**
 * `/planilla/cuotas`: the contribution rates and subject budget lines in force and their history (who
 * changed what from when) — the Parámetros screen filtered to its contributions topic, read through the
 * planillas API so every planilla user may consult it (a Planillas menu entry, served by this module). Scheduling a change stays with settings UPDATE.
 */
export function RatesPage() {
  const { t } = useTranslation();
  return (
    <SettingsPage
      topic="contributions"
      base="/api/planillas/rates"
      title={t('settings.rates.title')}
      description={t('settings.rates.description')}
    />
  );
}
