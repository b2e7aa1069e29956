import {
  applyLayoutSetting,
  DEFAULT_LAYOUT_SETTINGS,
  type LayoutSettingKey,
  type LayoutSettings,
  parseLayoutSettings,
  SHELL_TIMINGS,
} from '@aporta/domain/layout-settings';
import { useSyncExternalStore } from 'react';
import { api } from '../../lib/api.ts';
import { getToken } from '../../lib/session.ts';

/**
 * The shell's layout settings. The server keeps them per user (so they follow the user to another
 * computer); localStorage mirrors them so the first paint already has the right theme and layout.
 */
export const LAYOUT_STORAGE_KEY = 'layout-settings';

interface State {
  settings: LayoutSettings;
  /** True after a theme change until the spinner has been on screen for 1 s (spec section 4). */
  themeChanging: boolean;
  /** Counts theme changes, so a change during the spinner shows it a full second again. */
  themeChangeSeq: number;
}

function readLocal(): LayoutSettings {
  try {
    const raw = localStorage.getItem(LAYOUT_STORAGE_KEY);
    return parseLayoutSettings(raw ? JSON.parse(raw) : null);
  } catch {
    return { ...DEFAULT_LAYOUT_SETTINGS };
  }
}

let state: State = { settings: readLocal(), themeChanging: false, themeChangeSeq: 0 };
const listeners = new Set<() => void>();
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let resizeTimer: ReturnType<typeof setTimeout> | undefined;

function emit(next: State) {
  state = next;
  for (const l of listeners) l();
}

function writeLocal(settings: LayoutSettings) {
  try {
    localStorage.setItem(LAYOUT_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Private mode or full storage: the server copy still holds them.
  }
}

function saveToServer(settings: LayoutSettings) {
  clearTimeout(saveTimer);
  if (!getToken()) return;
  // Several quick clicks make one request.
  saveTimer = setTimeout(() => {
    api.put('/api/user-settings/layout', { body: settings }).catch(() => undefined);
  }, 250);
}

function commit(settings: LayoutSettings, opts: { save: boolean }) {
  const prev = state.settings;
  writeLocal(settings);
  if (opts.save) saveToServer(settings);
  let { themeChanging, themeChangeSeq } = state;
  if (prev.theme !== settings.theme) {
    // The spinner itself ends the change once it has been shown for its second (ThemeSpinner): a timer
    // started here would also count the time the page took to draw it.
    themeChanging = true;
    themeChangeSeq += 1;
  }
  if (prev.layout !== settings.layout) {
    // Charts and tables measure themselves on resize: tell them once the new layout has settled.
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => window.dispatchEvent(new Event('resize')), SHELL_TIMINGS.resizeEventAfterLayoutChangeMs);
  }
  emit({ settings, themeChanging, themeChangeSeq });
}

export const layoutStore = {
  get: (): State => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** One setting chosen by the user, with the rules that follow from it; saved on the server. */
  set<K extends LayoutSettingKey>(key: K, value: LayoutSettings[K]) {
    commit(applyLayoutSetting(state.settings, key, value), { save: true });
  },
  /** "Restablecer": back to the defaults, on the server too. */
  reset() {
    commit({ ...DEFAULT_LAYOUT_SETTINGS }, { save: true });
  },
  /** Called by the spinner after its second on screen; a newer theme change keeps it showing. */
  endThemeChange(seq: number) {
    if (state.themeChanging && state.themeChangeSeq === seq) emit({ ...state, themeChanging: false });
  },
  /** Loads the signed-in user's settings from the server (their copy wins over the local mirror). */
  async load(): Promise<void> {
    if (!getToken()) return;
    const remote = await api.get('/api/user-settings/layout').catch(() => null);
    if (remote) commit(parseLayoutSettings(remote), { save: false });
  },
};

export function useLayoutState(): State {
  return useSyncExternalStore(layoutStore.subscribe, layoutStore.get);
}

export function useLayoutSettings(): LayoutSettings {
  return useLayoutState().settings;
}
