import type { MenuItem } from '@aporta/domain';

/** Accent- and case-insensitive text for the menu search. */
export const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();

/**
 * The link leads to the current page, or to the list of the record it shows (/contributors/7/edit under
 * /contributors, /roles/new under /roles). A page that does not exist (/contributors/legal-module) lies
 * under no entry.
 */
export const linkCovers = (link: string | undefined, pathname: string): boolean =>
  !!link &&
  (link === pathname ||
    (link !== '/' && pathname.startsWith(`${link}/`) && /^(\d+|new)(\/|$)/.test(pathname.slice(link.length + 1))));

const linksOf = (items: readonly MenuItem[]): string[] =>
  items.flatMap((i) => [...(i.link && !i.subItems?.length ? [i.link] : []), ...linksOf(i.subItems ?? [])]);

/**
 * The one entry to highlight: of the links covering the current page, the longest (/contributors/list
 * rather than /contributors; /administrative/regions rather than /administrative).
 */
export function activeLinkOf(items: readonly MenuItem[], pathname: string): string | undefined {
  let best: string | undefined;
  for (const link of linksOf(items)) if (linkCovers(link, pathname) && (!best || link.length > best.length)) best = link;
  return best;
}

/** Whether the entry is the highlighted one (`active` from activeLinkOf over the whole menu). */
export const isActiveLink = (link: string | undefined, active: string | undefined): boolean => !!link && link === active;

/** The entry is the active one or a group holding it. */
export const holdsActive = (item: MenuItem, active: string | undefined): boolean =>
  isActiveLink(item.link, active) || (item.subItems ?? []).some((s) => holdsActive(s, active));

/** Ids of the groups on the path to the active entry, so they open. */
export function activeGroupIds(items: MenuItem[], active: string | undefined): string[] {
  return items.flatMap((i) =>
    i.subItems?.length && holdsActive(i, active) ? [i.id, ...activeGroupIds(i.subItems, active)] : [],
  );
}

/**
 * The tree reduced to entries whose label matches the query (a group stays when its label or any
 * descendant matches; a matching group keeps all its entries). Titles stay only when something
 * under them remains.
 */
export function searchMenu(items: MenuItem[], query: string, label: (key: string) => string): MenuItem[] {
  const q = fold(query);
  if (!q) return items;
  const walk = (list: MenuItem[]): MenuItem[] =>
    list.flatMap((item) => {
      if (item.isTitle) return [item];
      if (fold(label(item.label)).includes(q)) return [item];
      const kids = item.subItems ? walk(item.subItems) : [];
      return kids.length ? [{ ...item, subItems: kids }] : [];
    });
  const out = walk(items);
  return out.filter((item, i) => !item.isTitle || (out[i + 1] && !out[i + 1].isTitle));
}

/** Every leaf (entry with a link) of the tree, with the labels of the groups above it. */
export function menuLeaves(items: MenuItem[], parents: string[] = []): { item: MenuItem; parents: string[] }[] {
  return items.flatMap((i) => {
    if (i.isTitle) return [];
    if (i.subItems?.length) return menuLeaves(i.subItems, [...parents, i.label]);
    return i.link ? [{ item: i, parents }] : [];
  });
}

/**
 * How many of the horizontal menu's entries fit: their widths in order, the room of the bar less the
 * 100 px margin of the specification, and the width of the "Más" button taken when some overflow.
 */
export function fitHorizontal(widths: number[], room: number, moreWidth: number, margin = 100): number {
  const available = room - margin;
  const total = widths.reduce((a, b) => a + b, 0);
  if (total <= available) return widths.length;
  let used = moreWidth;
  let n = 0;
  for (const w of widths) {
    if (used + w > available) break;
    used += w;
    n += 1;
  }
  return n;
}
