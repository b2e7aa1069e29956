import { Box, Center, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';

export function AuthLayout() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-body)">
      <Box w="100%" maw={420}>
        <Text ta="center" fw={800} fz={32} c="blue.8" mb={4}>
          {t('shell.appName')}
        </Text>
        <Text ta="center" c="dimmed" size="sm" mb="lg">
          {t('shell.tagline')}
        </Text>
        <Paper withBorder shadow="sm" p="xl" radius="md" component="main">
          <Outlet />
        </Paper>
      </Box>
    </Center>
  );
}
