/**
 * Tabs a page takes from other modules: each module registers its entry when loaded, and the page shows
 * them in `order`. Registering the same `value` again (a module loaded twice) keeps the first.
 */
export function tabRegistry<T extends { value: string; order: number }>(): { tabs: readonly T[]; register: (tab: T) => void } {
  const tabs: T[] = [];
  return {
    tabs,
    register(tab) {
      if (!tabs.some((t) => t.value === tab.value)) tabs.push(tab);
      tabs.sort((a, b) => a.order - b.order);
    },
  };
}
