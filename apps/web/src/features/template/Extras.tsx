import type { CollectionRecord } from '@aporta/domain';
import { Badge, Button, Card, Divider, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconBox, IconCash, IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { StatCard } from '../../components/StatCard.tsx';
import { PlaceholderAvatar } from '../../lib/field-types.tsx';
import { formatDate, formatMoneyDecimal } from '../../lib/format.ts';
import { AddToCart } from './Cart.tsx';

/** What a template record's page shows above its form: a product's cart button, a seller's overview, a printable invoice. */
export function extraOf(kind: 'product' | 'invoice' | 'seller', r: CollectionRecord) {
  if (kind === 'product') return <ProductHeader r={r} />;
  if (kind === 'seller') return <SellerOverview r={r} />;
  return <InvoiceSheet r={r} />;
}

function ProductHeader({ r }: { r: CollectionRecord }) {
  return (
    <Card withBorder>
      <Group justify="space-between" wrap="wrap">
        <Group wrap="nowrap">
          <PlaceholderAvatar src={(r.img as string | null) ?? null} name={r.label} size={96} />
          <Stack gap={4}>
            <Text fw={700} size="lg">
              {r.label}
            </Text>
            <Text c="dimmed">{String(r.category ?? '')}</Text>
            <Text fw={700} size="xl">
              {formatMoneyDecimal(String(r.price ?? '0'))}
            </Text>
          </Stack>
        </Group>
        <AddToCart productId={r.id} />
      </Group>
    </Card>
  );
}

function SellerOverview({ r }: { r: CollectionRecord }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <StatCard title={t('tpl.revenue')} value={Number(r.revenue ?? 0)} decimals={2} prefix="Q " icon={<IconCash />} />
      <StatCard
        title={t('tpl.stock')}
        value={Number(r.stock ?? 0)}
        color="teal"
        icon={<IconBox />}
        note={String(r.seller ?? '')}
      />
    </SimpleGrid>
  );
}

/** The invoice as a printable sheet (the browser's print prints only it: see shell.css @media print). */
function InvoiceSheet({ r }: { r: CollectionRecord }) {
  const { t } = useTranslation();
  return (
    <Card withBorder className="printable" data-testid="invoice-sheet">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            {t('tpl.invoice')} {String(r.invoiceNo)}
          </Title>
          <Text size="sm" c="dimmed">
            {t('tpl.issued')}: {formatDate(r.createDate as string)} · {t('tpl.due')}: {formatDate(r.dueDate as string)}
          </Text>
        </div>
        <Group className="no-print">
          <Badge size="lg" variant="light">
            {String(r.status)}
          </Badge>
          <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
            {t('tpl.print')}
          </Button>
        </Group>
      </Group>
      <Divider my="sm" />
      <Text fw={600}>{String(r.customer)}</Text>
      <Text size="sm">{String(r.email ?? '')}</Text>
      <Table mt="md">
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>{t('tpl.invoiceAmount')}</Table.Td>
            <Table.Td ta="right" fw={700}>
              {formatMoneyDecimal(String(r.invoiceAmount ?? '0'))}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Card>
  );
}
