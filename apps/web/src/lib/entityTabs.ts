import type { Action, Resource } from '@aporta/domain/permissions';
import type { ReactNode } from 'react';
import { tabRegistry } from './tabRegistry.ts';

/**
 * Tabs of a municipal entity's page (Administrativo → Entidades municipales → one entity): its payment
 * orders and payments, agreements, account statement, solvency certificates, legal cases. Each module
 * exports its tabs; the composition root (src/registrations.ts) registers a loader for each module, so
 * their code is downloaded only when an entity's page opens, and the page waits for `loadEntityTabs()`.
 */
export interface EntityTab {
  value: string;
  labelKey: string;
  order: number;
  permission: { resource: Resource; action: Action };
  render: (entityId: number) => ReactNode;
}

const registry = tabRegistry<EntityTab>();
const loaders: (() => Promise<readonly EntityTab[]>)[] = [];

/** Adds a module's tabs, given as a loader of its (lazily imported) tab list. */
export function registerEntityTabs(load: () => Promise<readonly EntityTab[]>): void {
  loaders.push(load);
}

/** Loads every registered module's tabs (a module already loaded costs nothing) and answers them in order. */
export async function loadEntityTabs(): Promise<readonly EntityTab[]> {
  for (const tabs of await Promise.all(loaders.map((load) => load()))) for (const tab of tabs) registry.register(tab);
  return registry.tabs;
}
