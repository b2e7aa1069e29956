import type { Contributor } from '@aporta/domain';
import type { Action, Resource } from '@aporta/domain/permissions';
import type { ReactNode } from 'react';

/**
 * Tabs of the contributor page ("360°"). Other modules (planillas, payments, pensions) append their
 * own entry here — `{ value, labelKey, order, render }` — and the page shows it without changes.
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

export const contributorTabs: ContributorTab[] = [];

export function registerContributorTab(tab: ContributorTab): void {
  if (!contributorTabs.some((t) => t.value === tab.value)) contributorTabs.push(tab);
  contributorTabs.sort((a, b) => a.order - b.order);
}
