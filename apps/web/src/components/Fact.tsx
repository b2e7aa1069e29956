import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One fact of a record's page: a small dimmed label above its value. */
export const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <Stack gap={0}>
    <Text size="xs" c="dimmed">
      {label}
    </Text>
    <Text fw={500} component="div">
      {children}
    </Text>
  </Stack>
);
