import { Box, Center, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { useAppInfo } from '../lib/useAppInfo.ts';

export function AuthLayout() {
  const { t } = useTranslation();
  const info = useAppInfo();
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-body)">
      <Box w="100%" maw={420}>
        <Text ta="center" fw={800} fz={32} c="var(--mantine-primary-color-filled)" mb={4}>
          {info?.title ?? t('shell.appName')}
        </Text>
        <Text ta="center" c="dimmed" size="sm" mb="lg">
          {t('shell.tagline')}
        </Text>
        <Paper withBorder shadow="sm" p="xl" radius="md" component="main">
          <Outlet />
        </Paper>
        <Text ta="center" c="dimmed" size="xs" mt="md">
          © {new Date().getFullYear()} {info?.acronym ?? ''}
        </Text>
      </Box>
    </Center>
  );
}
