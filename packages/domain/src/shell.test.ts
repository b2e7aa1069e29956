import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyLayoutSetting,
  DEFAULT_LAYOUT_SETTINGS,
  effectiveLayout,
  layoutSettingsSchema,
  parseLayoutSettings,
  responsiveSidebarSize,
  SIDEBAR_SIZES,
  THEMES,
  visibleLayoutSettings,
} from './shell.ts';

describe('layout settings', () => {
  it('has the defaults of the specification', () => {
    expect(DEFAULT_LAYOUT_SETTINGS).toEqual({
      layout: 'vertical',
      theme: 'default',
      mode: 'light',
      width: 'fluid',
      position: 'fixed',
      topbar: 'light',
      sidebarSize: 'lg',
      sidebarView: 'default',
      sidebarColor: 'dark',
      sidebarImage: 'none',
      preloader: 'disable',
    });
  });

  it('falls back to the default for each corrupt or unknown value and keeps the valid ones', () => {
    expect(parseLayoutSettings(null)).toEqual(DEFAULT_LAYOUT_SETTINGS);
    expect(parseLayoutSettings('basura')).toEqual(DEFAULT_LAYOUT_SETTINGS);
    expect(parseLayoutSettings([1, 2])).toEqual(DEFAULT_LAYOUT_SETTINGS);
    expect(parseLayoutSettings({ layout: 'diagonal', theme: 'minimal', extra: 1, sidebarSize: 42 })).toEqual({
      ...DEFAULT_LAYOUT_SETTINGS,
      theme: 'minimal',
    });
  });

  it('resolves auto mode to light', () => {
    expect(parseLayoutSettings({ mode: 'auto' }).mode).toBe('light');
    expect(layoutSettingsSchema.parse({ ...DEFAULT_LAYOUT_SETTINGS, mode: 'auto' }).mode).toBe('light');
    expect(layoutSettingsSchema.safeParse({ ...DEFAULT_LAYOUT_SETTINGS, mode: 'brand' }).success).toBe(false);
  });

  it('never throws and always answers a valid object', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        expect(layoutSettingsSchema.safeParse(parseLayoutSettings(raw)).success).toBe(true);
      }),
    );
  });

  it('boxed width sets sm-hover and fluid sets lg', () => {
    const boxed = applyLayoutSetting(DEFAULT_LAYOUT_SETTINGS, 'width', 'boxed');
    expect(boxed.sidebarSize).toBe('sm-hover');
    expect(applyLayoutSetting({ ...boxed, sidebarSize: 'md' }, 'width', 'fluid').sidebarSize).toBe('lg');
  });

  it('the minimal theme sets a light sidebar and any other theme a dark one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...THEMES), fc.constantFrom('light', 'gradient-3') as fc.Arbitrary<'light'>, (theme, color) => {
        const next = applyLayoutSetting({ ...DEFAULT_LAYOUT_SETTINGS, sidebarColor: color }, 'theme', theme);
        expect(next.sidebarColor).toBe(theme === 'minimal' ? 'light' : 'dark');
      }),
    );
  });

  it('shows each setting only in its layouts', () => {
    expect(visibleLayoutSettings('vertical')).toMatchObject({
      width: true,
      position: true,
      sidebarSize: true,
      sidebarView: true,
      sidebarColor: true,
      sidebarImage: true,
    });
    expect(visibleLayoutSettings('horizontal')).toMatchObject({
      width: true,
      position: true,
      sidebarSize: false,
      sidebarView: false,
      sidebarColor: false,
      sidebarImage: false,
    });
    expect(visibleLayoutSettings('twocolumn')).toMatchObject({
      width: false,
      position: false,
      sidebarSize: false,
      sidebarView: false,
      sidebarColor: true,
      sidebarImage: true,
    });
  });

  it('sizes the sidebar by window width: none at 767 or less, sm up to 1024, the chosen size above', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 4000 }), fc.constantFrom(...SIDEBAR_SIZES), (w, size) => {
        const r = responsiveSidebarSize(w, size);
        if (w <= 767) expect(r).toBeNull();
        else if (w <= 1024) expect(r).toBe('sm');
        else expect(r).toBe(size);
      }),
    );
    expect(responsiveSidebarSize(767, 'lg')).toBeNull();
    expect(responsiveSidebarSize(768, 'lg')).toBe('sm');
    expect(responsiveSidebarSize(1025, 'lg')).toBe('lg');
  });

  it('two-column falls back to vertical on narrow screens', () => {
    expect(effectiveLayout(900, 'twocolumn')).toBe('vertical');
    expect(effectiveLayout(1440, 'twocolumn')).toBe('twocolumn');
    expect(effectiveLayout(375, 'horizontal')).toBe('horizontal');
  });
});
