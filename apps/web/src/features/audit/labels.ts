import type { TFunction } from 'i18next';

/**
 * Spanish (translated) names of the audit log's internal codes: actions (`CUI_REQUEST` → "Solicitud de
 * aprobación de CUI") and entity types (`cui_approval_request`; a catalogue's name → its screen's name).
 * audit/labels.test.ts fails when the API writes a code without a label here.
 */
export const auditActionLabel = (t: TFunction, action: string): string => t(`audit.actions.${action}`, { defaultValue: action });

export const auditEntityLabel = (t: TFunction, entityType: string): string =>
  t(`audit.entityTypes.${entityType}`, {
    defaultValue: t(`catalogs.collections.${entityType}`, { defaultValue: entityType }),
  });
