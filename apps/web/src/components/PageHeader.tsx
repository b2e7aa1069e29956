import { Group, type GroupProps, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The top of a screen: its one h1 (with an optional line under it) on the left, its actions (export,
 * new…) on the right, wrapping under the title on narrow screens.
 */
export function PageHeader({
  title,
  description,
  children,
  ...groupProps
}: { title: ReactNode; description?: ReactNode; children?: ReactNode } & Omit<GroupProps, 'title' | 'children'>) {
  const heading = (
    <Title order={1} size="h2">
      {title}
    </Title>
  );
  return (
    <Group justify="space-between" align="center" wrap="wrap" {...groupProps}>
      {description ? (
        <div>
          {heading}
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        </div>
      ) : (
        heading
      )}
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}
