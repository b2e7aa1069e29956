import {
  LAYOUTS,
  type LayoutSettingKey,
  type LayoutSettings,
  POSITIONS,
  PRELOADERS,
  SIDEBAR_COLORS,
  SIDEBAR_IMAGES,
  SIDEBAR_SIZES,
  SIDEBAR_VIEWS,
  THEMES,
  TOPBARS,
  visibleLayoutSettings,
  WIDTHS,
} from '@aporta/domain';
import { Badge, Button, Drawer, Group, Radio, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { layoutStore, useLayoutSettings } from './layoutStore.ts';

type Options<K extends LayoutSettingKey> = readonly { value: LayoutSettings[K]; disabled?: boolean; soon?: boolean }[];

const opts = <K extends LayoutSettingKey>(values: readonly LayoutSettings[K][]): Options<K> => values.map((value) => ({ value }));

function Setting<K extends LayoutSettingKey>({ name, options }: { name: K; options: Options<K> }) {
  const { t } = useTranslation();
  const settings = useLayoutSettings();
  return (
    <Radio.Group
      name={name}
      label={t(`shell.settings.${name as string}.label` as string)}
      value={settings[name] as string}
      onChange={(v) => layoutStore.set(name, v as LayoutSettings[K])}
      data-testid={`setting-${name}`}
    >
      <div className="settings-option-row" style={{ marginTop: 8 }}>
        {options.map((o) => (
          <Radio
            key={o.value as string}
            value={o.value as string}
            disabled={o.disabled}
            label={
              o.soon ? (
                <Group gap={6}>
                  <span>{t(`shell.settings.${name as string}.${o.value as string}` as string)}</span>
                  <Badge size="xs" variant="light" color="gray">
                    {t('shell.settings.soon')}
                  </Badge>
                </Group>
              ) : (
                t(`shell.settings.${name as string}.${o.value as string}` as string)
              )
            }
          />
        ))}
      </div>
    </Radio.Group>
  );
}

/**
 * Every layout setting of the specification, in a drawer with a backdrop. Settings that do not apply
 * to the chosen layout are not shown (spec section 4).
 */
export function SettingsDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useLayoutSettings();
  const show = visibleLayoutSettings(settings.layout);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={360}
      title={<Text fw={700}>{t('shell.settings.title')}</Text>}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      overlayProps={{ backgroundOpacity: 0.45 }}
      data-testid="settings-drawer"
    >
      <Stack gap="lg" pb="xl">
        <Text size="sm" c="dimmed">
          {t('shell.settings.subtitle')}
        </Text>
        <Setting name="layout" options={opts<'layout'>(LAYOUTS)} />
        <Setting name="theme" options={opts<'theme'>(THEMES)} />
        <Setting
          name="mode"
          options={[{ value: 'light' }, { value: 'dark' }, { value: 'brand' as 'light', disabled: true, soon: true }]}
        />
        {show.width && <Setting name="width" options={opts<'width'>(WIDTHS)} />}
        {show.position && <Setting name="position" options={opts<'position'>(POSITIONS)} />}
        <Setting name="topbar" options={opts<'topbar'>(TOPBARS)} />
        {show.sidebarSize && <Setting name="sidebarSize" options={opts<'sidebarSize'>(SIDEBAR_SIZES)} />}
        {show.sidebarView && <Setting name="sidebarView" options={opts<'sidebarView'>(SIDEBAR_VIEWS)} />}
        {show.sidebarColor && <Setting name="sidebarColor" options={opts<'sidebarColor'>(SIDEBAR_COLORS)} />}
        {show.sidebarImage && <Setting name="sidebarImage" options={opts<'sidebarImage'>(SIDEBAR_IMAGES)} />}
        <Setting name="preloader" options={opts<'preloader'>(PRELOADERS)} />
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          onClick={() => layoutStore.reset()}
          data-testid="settings-reset"
        >
          {t('shell.settings.reset')}
        </Button>
      </Stack>
    </Drawer>
  );
}
