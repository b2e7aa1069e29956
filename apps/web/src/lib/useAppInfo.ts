import type { AppInfo } from '@aporta/domain/shell';
import { useEffect, useState } from 'react';
import { api } from './api.ts';

// Read once per page load and shared by the sign-in layout and the main layout. Not a TanStack query:
// the sign-in page must not download the query library for one constant answer.
let cached: AppInfo | undefined;
let pending: Promise<AppInfo | undefined> | undefined;
const load = () => {
  pending ??= api
    .get('/api/app-info')
    .then((info) => {
      cached = info;
      return info;
    })
    .catch(() => {
      // A later screen asks again rather than keeping a failure for the whole visit.
      pending = undefined;
      return undefined;
    });
  return pending;
};

/** Title, acronym and credit from the server's configuration; the title becomes the document title. */
export function useAppInfo(): AppInfo | undefined {
  const [info, setInfo] = useState(cached);
  useEffect(() => {
    if (cached) return;
    let live = true;
    void load().then((i) => live && setInfo(i));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (info?.title) document.title = info.title;
  }, [info?.title]);
  return info;
}
