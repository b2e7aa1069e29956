import type { Contributor } from '@aporta/domain';
import type { Action, Resource } from '@aporta/domain/permissions';
import type { ReactNode } from 'react';
import { tabRegistry } from './tabRegistry.ts';

/**
 * Tabs of the contributor page ("360°"). The contributors module registers its own; other modules
 * (planillas, payments, pensions) export theirs — `{ value, labelKey, order, render }` — and the
 * composition root (src/registrations.ts) registers them, so the page shows them without changes.
 */
export interface ContributorTab {
  value: string;
  /** i18n key of the tab label. */
  labelKey: string;
  order: number;
  render: (contributor: Contributor) => ReactNode;
  /** The permission the tab's data needs besides the page's own; the tab is hidden without it. */
  permission?: { resource: Resource; action: Action };
}

const registry = tabRegistry<ContributorTab>();
export const contributorTabs = registry.tabs;
export const registerContributorTab = registry.register;
