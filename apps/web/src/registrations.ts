import { agreementSearch } from './features/agreements/search.ts';
import { entitySearch } from './features/catalogs/search.ts';
import { contributorSearch } from './features/contributors/search.ts';
import { paymentContributorTabs, paymentEntityTabs } from './features/payments/ownerTabs.tsx';
import { orderSearch, receiptSearch } from './features/payments/search.ts';
import { pensionContributorTab } from './features/pensions/contributorTab.tsx';
import { pensionSearch } from './features/pensions/search.ts';
import { planillaContributorTab } from './features/planillas/contributorTab.tsx';
import { planillaSearch } from './features/planillas/search.ts';
import { documentSearch } from './features/signing/search.ts';
import { registerContributorTab } from './lib/contributorTabs.ts';
import { registerEntityTabs } from './lib/entityTabs.ts';
import { registerSearchProvider } from './lib/searchProviders.ts';

/**
 * The one place where modules add to one another's screens (a feature never imports another): the
 * command palette's record searches, the tabs of a contributor's page and the tabs of a municipal
 * entity's page. Called once, with the signed-in part of the route table (app-routes.tsx).
 */
let registered = false;

export function registerModuleExtensions(): void {
  if (registered) return;
  registered = true;

  // The palette shows the groups in this order: who and where first, then the work.
  for (const p of [
    entitySearch,
    contributorSearch,
    planillaSearch,
    orderSearch,
    receiptSearch,
    agreementSearch,
    pensionSearch,
    documentSearch,
  ])
    registerSearchProvider(p);

  // Tabs of equal `order` keep the order they are registered in (payment orders before pensions).
  for (const tab of paymentContributorTabs) registerContributorTab(tab);
  registerContributorTab(pensionContributorTab);
  registerContributorTab(planillaContributorTab);

  // An entity's tabs: loaded (with their module's code) only when an entity's page opens.
  registerEntityTabs(async () => paymentEntityTabs);
  registerEntityTabs(async () => (await import('./features/agreements/entityTabs.tsx')).agreementEntityTabs);
  registerEntityTabs(async () => (await import('./features/financial/entityTabs.tsx')).financialEntityTabs);
  registerEntityTabs(async () => (await import('./features/legal/entityTabs.tsx')).legalEntityTabs);
}
