import { ActionIcon, Button, Card, Divider, Group, Indicator, Menu, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { IconShoppingCart, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { PlaceholderAvatar } from '../../lib/field-types.tsx';
import { formatMoneyDecimal } from '../../lib/format.ts';
import { notifyError } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { type Cart, useCart, useRemoveFromCart, useSetCartQty } from './api.ts';

/** The cart's totals (computed by the server, exactly, with the spec's tax, shipping and discount). */
function Totals({ cart }: { cart: Cart }) {
  const { t } = useTranslation();
  const row = (label: string, value: string, testId: string, strong = false) => (
    <Group justify="space-between">
      <Text size="sm" fw={strong ? 700 : undefined}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 700 : undefined} data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatMoneyDecimal(value)}
      </Text>
    </Group>
  );
  return (
    <Stack gap={4}>
      {row(t('tpl.subtotal'), cart.subtotal, 'cart-subtotal')}
      {row(t('tpl.discount'), `-${cart.discount}`, 'cart-discount')}
      {row(t('tpl.shipping'), cart.shipping, 'cart-shipping')}
      {row(t('tpl.tax'), cart.tax, 'cart-tax')}
      <Divider />
      {row(t('tpl.total'), cart.total, 'cart-total', true)}
    </Stack>
  );
}

function useRemove() {
  const { t } = useTranslation();
  const remove = useRemoveFromCart();
  return (productId: number, title: string) =>
    openConfirm({
      title: t('tpl.removeTitle'),
      children: <Text size="sm">{t('tpl.removeConfirm', { title })}</Text>,
      labels: { confirm: t('tpl.remove'), cancel: t('catalogs.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        remove.mutateAsync(productId).catch(notifyError);
      },
    });
}

/** The cart page: items with quantity (never below 1), removal with confirmation, exact totals. */
export function CartPage() {
  const { t } = useTranslation();
  const cart = useCart();
  const setQty = useSetCartQty();
  const remove = useRemove();
  return (
    <Stack>
      <PageHeader title={t('menu.tplCart')} />
      <QueryState query={cart}>
        {() =>
          cart.data && (
            <Group align="flex-start" wrap="wrap" gap="md">
              <Card withBorder style={{ flex: '1 1 480px' }}>
                {cart.data.items.length === 0 ? (
                  <Text c="dimmed">{t('tpl.cartEmpty')}</Text>
                ) : (
                  <Table data-testid="cart-table">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('tpl.product')}</Table.Th>
                        <Table.Th>{t('tpl.price')}</Table.Th>
                        <Table.Th>{t('tpl.qty')}</Table.Th>
                        <Table.Th>{t('tpl.lineTotal')}</Table.Th>
                        <Table.Th />
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {cart.data.items.map((i) => (
                        <Table.Tr key={i.productId} data-testid="cart-line">
                          <Table.Td>
                            <Group gap="sm" wrap="nowrap">
                              <PlaceholderAvatar src={i.img} name={i.title} size={32} />
                              <div>
                                <Text size="sm" fw={600}>
                                  {i.title}
                                </Text>
                                <Text size="xs" c="dimmed">
                                  {i.category}
                                </Text>
                              </div>
                            </Group>
                          </Table.Td>
                          <Table.Td>{formatMoneyDecimal(i.price)}</Table.Td>
                          <Table.Td>
                            <NumberInput
                              aria-label={t('tpl.qtyOf', { title: i.title })}
                              value={i.qty}
                              min={1}
                              max={999}
                              allowDecimal={false}
                              allowNegative={false}
                              clampBehavior="strict"
                              w={90}
                              onChange={(v) => {
                                const qty = typeof v === 'number' ? v : Number(v);
                                if (Number.isInteger(qty) && qty >= 1 && qty !== i.qty)
                                  setQty.mutate({ productId: i.productId, qty }, { onError: notifyError });
                              }}
                            />
                          </Table.Td>
                          <Table.Td>{formatMoneyDecimal(i.lineTotal)}</Table.Td>
                          <Table.Td>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={`${t('tpl.remove')} ${i.title}`}
                              onClick={() => remove(i.productId, i.title)}
                            >
                              <IconTrash size={16} />
                            </ActionIcon>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </Card>
              <Card withBorder style={{ flex: '0 1 320px' }}>
                <Title order={2} size="h4" mb="sm">
                  {t('tpl.orderSummary')}
                </Title>
                <Totals cart={cart.data} />
              </Card>
            </Group>
          )
        }
      </QueryState>
    </Stack>
  );
}

/** The topbar's cart: a count badge and a menu with the items, removal with confirmation and the total. */
export function CartButton() {
  const { t } = useTranslation();
  const can = useCan();
  if (!can('plantilla', 'READ')) return null;
  return <CartMenu label={t('tpl.cart')} />;
}

function CartMenu({ label }: { label: string }) {
  const { t } = useTranslation();
  const cart = useCart();
  const remove = useRemove();
  const n = cart.data?.count ?? 0;
  return (
    <Menu position="bottom-end" width={320} withinPortal>
      {/* The menu's target is the button itself (its aria-haspopup/expanded belong on a button, not the badge's box). */}
      <Indicator label={n} size={16} disabled={n === 0} offset={4}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} data-testid="cart-button">
            <IconShoppingCart size={20} />
          </ActionIcon>
        </Menu.Target>
      </Indicator>
      <Menu.Dropdown>
        <Menu.Label>{t('tpl.cartItems', { count: n })}</Menu.Label>
        {cart.data?.items.map((i) => (
          <Group key={i.productId} justify="space-between" wrap="nowrap" px="xs" py={4}>
            <Text size="sm" lineClamp={1}>
              {i.qty} × {i.title}
            </Text>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="red"
              aria-label={`${t('tpl.remove')} ${i.title}`}
              onClick={() => remove(i.productId, i.title)}
            >
              <IconTrash size={14} />
            </ActionIcon>
          </Group>
        ))}
        {cart.data && cart.data.items.length > 0 && (
          <>
            <Menu.Divider />
            <Group justify="space-between" px="xs">
              <Text size="sm" fw={700}>
                {t('tpl.total')}
              </Text>
              <Text size="sm" fw={700}>
                {formatMoneyDecimal(cart.data.total)}
              </Text>
            </Group>
          </>
        )}
        <Menu.Divider />
        <Button component={Link} to="/plantilla/comercio/carrito" variant="light" fullWidth size="xs">
          {t('tpl.viewCart')}
        </Button>
      </Menu.Dropdown>
    </Menu>
  );
}

/** On a product's page: put it in the cart. */
export function AddToCart({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const setQty = useSetCartQty();
  const cart = useCart();
  const inCart = cart.data?.items.find((i) => i.productId === productId);
  return (
    <Button
      leftSection={<IconShoppingCart size={16} />}
      loading={setQty.isPending}
      onClick={() => setQty.mutate({ productId, qty: (inCart?.qty ?? 0) + 1 }, { onError: notifyError })}
      data-testid="add-to-cart"
    >
      {inCart ? t('tpl.addOneMore', { count: inCart.qty }) : t('tpl.addToCart')}
    </Button>
  );
}
