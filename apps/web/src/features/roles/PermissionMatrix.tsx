import {
  type Action,
  actions,
  type EffectivePermissions,
  type Grant,
  permissionMatrix,
  type Scope,
  scopeFor,
  validScopes,
} from '@aporta/domain';
import { Accordion, Badge, Checkbox, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The scopes the resource admits; a stored scope it no longer admits stays visible so it can be changed. */
const scopeOptions = (resource: Grant['resource'], current: Scope): readonly Scope[] => {
  const valid = validScopes(resource);
  return valid.includes(current) ? valid : [...valid, current];
};

export type GrantMap = Record<string, Scope>;
export const grantKey = (resource: string, action: string) => `${resource}:${action}`;

export const toGrantMap = (grants: readonly { resource: string; action: string; scope: Scope }[]): GrantMap =>
  Object.fromEntries(grants.map((g) => [grantKey(g.resource, g.action), g.scope]));

export const fromGrantMap = (map: GrantMap): Grant[] =>
  Object.entries(map).map(([key, scope]) => {
    const [resource, action] = key.split(':');
    return { resource, action, scope } as Grant;
  });

/**
 * The role editor's matrix, grouped like the sidebar: one row per resource, one column per action (a
 * checkbox only where the action exists for that resource), and the data scope of each granted cell.
 * With `ceiling`, an action the user does not hold cannot be ticked (nobody grants what they lack).
 */
export function PermissionMatrix({
  value,
  onChange,
  readOnly,
  ceiling,
}: {
  value: GrantMap;
  onChange: (v: GrantMap) => void;
  readOnly?: boolean;
  ceiling?: EffectivePermissions;
}) {
  const { t } = useTranslation();
  const groups = useMemo(() => permissionMatrix(), []);
  const toggle = (key: string, on: boolean) => {
    const next = { ...value };
    const [resource, action] = key.split(':') as [Grant['resource'], Action];
    if (on) next[key] = (ceiling && scopeFor(ceiling, resource, action)) || 'ALL';
    else delete next[key];
    onChange(next);
  };
  const setScope = (key: string, scope: Scope) => onChange({ ...value, [key]: scope });

  return (
    <Accordion multiple defaultValue={[groups[0].id]} variant="separated">
      {groups.map((g) => {
        const selected = g.rows.reduce((n, r) => n + r.actions.filter((a) => value[grantKey(r.resource, a)]).length, 0);
        return (
          <Accordion.Item key={g.id} value={g.id}>
            <Accordion.Control>
              <Group gap="xs">
                <Text fw={600}>{t(g.label)}</Text>
                {selected > 0 && (
                  <Badge size="sm" color="blue.9" variant="outline">
                    {t('roles.selectedCount', { count: selected })}
                  </Badge>
                )}
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <Table.ScrollContainer minWidth={900}>
                <Table striped withColumnBorders verticalSpacing={4} data-testid={`matrix-${g.id}`}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('roles.resourceColumn')}</Table.Th>
                      {actions.map((a) => (
                        <Table.Th key={a} ta="center">
                          {t(`roles.action.${a}`)}
                        </Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {g.rows.map((row) => (
                      <Table.Tr key={row.resource}>
                        <Table.Td>
                          <Text size="sm">{t(row.label)}</Text>
                        </Table.Td>
                        {actions.map((a: Action) => {
                          if (!row.actions.includes(a)) return <Table.Td key={a} />;
                          const key = grantKey(row.resource, a);
                          const scope = value[key];
                          const name = `${t(row.label)} — ${t(`roles.action.${a}`)}`;
                          return (
                            <Table.Td key={a}>
                              <Stack gap={4} align="center">
                                <Checkbox
                                  aria-label={name}
                                  checked={!!scope}
                                  disabled={readOnly || (!scope && !!ceiling && !scopeFor(ceiling, row.resource, a))}
                                  onChange={(e) => toggle(key, e.currentTarget.checked)}
                                />
                                {scope &&
                                  (validScopes(row.resource).length > 1 || !validScopes(row.resource).includes(scope)) && (
                                    <NativeSelect
                                      size="xs"
                                      aria-label={`${t('roles.scope')}: ${name}`}
                                      value={scope}
                                      disabled={readOnly}
                                      onChange={(e) => setScope(key, e.currentTarget.value as Scope)}
                                      data={scopeOptions(row.resource, scope).map((s) => ({
                                        value: s,
                                        label: t(`roles.scopeOption.${s}`),
                                      }))}
                                    />
                                  )}
                              </Stack>
                            </Table.Td>
                          );
                        })}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}
