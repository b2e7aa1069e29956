import { errorCatalogue } from '../errors.ts';
import { accountsMessages } from './accounts.ts';
import { agreementsMessages } from './agreements.ts';
import { apiTokensMessages } from './api-tokens.ts';
import { catalogsMessages } from './catalogs.ts';
import { contributorsMessages } from './contributors.ts';
import { financialMessages } from './financial.ts';
import { legalMessages } from './legal.ts';
import { mailMessages } from './mail.ts';
import { paymentsMessages } from './payments.ts';
import { pensionsMessages } from './pensions.ts';
import { planillasMessages } from './planillas.ts';
import { platformMessages } from './platform.ts';
import { settingsMessages } from './settings.ts';
import { signingMessages } from './signing.ts';
import { webhooksMessages } from './webhooks.ts';
import { workflowMessages } from './workflow.ts';

type ErrorTexts = { readonly [K in keyof typeof errorCatalogue]: (typeof errorCatalogue)[K]['message'] };

/** Every module's catalogue, by the first part of its keys (`planillas.notFound`). */
const catalogues = {
  errors: Object.fromEntries(Object.entries(errorCatalogue).map(([code, e]) => [code, e.message])) as ErrorTexts,
  platform: platformMessages,
  accounts: accountsMessages,
  catalogs: catalogsMessages,
  contributors: contributorsMessages,
  planillas: planillasMessages,
  payments: paymentsMessages,
  agreements: agreementsMessages,
  pensions: pensionsMessages,
  signing: signingMessages,
  workflow: workflowMessages,
  financial: financialMessages,
  legal: legalMessages,
  settings: settingsMessages,
  mail: mailMessages,
  integrations: apiTokensMessages,
  webhooks: webhooksMessages,
} as const;
type Catalogues = typeof catalogues;

export type MessageKey = { [M in keyof Catalogues]: `${M}.${Extract<keyof Catalogues[M], string>}` }[keyof Catalogues];
export type MessageText<K extends MessageKey> = K extends `${infer M extends keyof Catalogues}.${infer N}`
  ? N extends keyof Catalogues[M]
    ? Catalogues[M][N] extends string
      ? Catalogues[M][N]
      : string
    : string
  : string;

/** The catalogues flattened: `{ 'planillas.notFound': 'La planilla …' }`. */
export const serverMessages: Readonly<Record<MessageKey, string>> = Object.fromEntries(
  Object.entries(catalogues).flatMap(([m, texts]) => Object.entries(texts).map(([n, t]) => [`${m}.${n}`, t as string])),
) as Record<MessageKey, string>;

/** The catalogues nested as the web's locale files hold them (`server.planillas.notFound`). */
export const serverMessageTree = catalogues;
