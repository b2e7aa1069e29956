import { COUNT_UP_SECONDS, SPARKLINE_HEIGHT } from '@aporta/domain/template';
import { Card, Group, Text, ThemeIcon } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALE_OF, parseLanguage } from '../lib/i18n.ts';

/**
 * A number that counts up from 0 to `value` in `COUNT_UP_SECONDS` (spec §9: duration 2), with `decimals`
 * places (2 on the cards the spec says). The final text is exact: it is `value` formatted, not the
 * animation's last step. Without animation when the user asks for reduced motion.
 */
export function CountUp({ value, decimals = 0, prefix = '' }: { value: number; decimals?: number; prefix?: string }) {
  const { i18n } = useTranslation();
  const reduce = useReducedMotion();
  const [shown, setShown] = useState(reduce ? value : 0);
  useEffect(() => {
    if (reduce) {
      setShown(value);
      return;
    }
    let frame = 0;
    const start = performance.now();
    const step = (now: number) => {
      const p = Math.min(1, (now - start) / (COUNT_UP_SECONDS * 1000));
      setShown(p >= 1 ? value : value * (1 - (1 - p) ** 3));
      if (p < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [value, reduce]);
  const text = new Intl.NumberFormat(LOCALE_OF[parseLanguage(i18n.language)], {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(shown);
  return (
    <span style={{ fontVariantNumeric: 'tabular-nums' }} data-value={value.toFixed(decimals)}>
      {prefix}
      {text}
    </span>
  );
}

/** A small line chart of a series, 43 px high (spec §9), scaled to its own range. */
export function Sparkline({
  values,
  color = 'var(--mantine-primary-color-filled)',
  label,
}: {
  values: number[];
  color?: string;
  label: string;
}) {
  const width = 120;
  const h = SPARKLINE_HEIGHT;
  if (values.length < 2) return <svg width={width} height={h} role="img" aria-label={label} />;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const points = values.map(
    (v, i) => `${((i / (values.length - 1)) * width).toFixed(1)},${(h - 3 - ((v - min) / span) * (h - 6)).toFixed(1)}`,
  );
  return (
    <svg width={width} height={h} viewBox={`0 0 ${width} ${h}`} role="img" aria-label={label} data-testid="sparkline">
      <polyline
        points={points.join(' ')}
        fill="none"
        stroke={color}
        strokeWidth={2}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** A dashboard card: title, a counted-up figure, an icon and an optional sparkline or note. */
export function StatCard({
  title,
  value,
  decimals = 0,
  prefix,
  icon,
  color = 'blue',
  note,
  series,
}: {
  title: string;
  value: number;
  decimals?: number;
  prefix?: string;
  icon?: ReactNode;
  color?: string;
  note?: ReactNode;
  series?: number[];
}) {
  return (
    <Card withBorder radius="md" padding="md" data-testid="stat-card">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {title}
          </Text>
          <Text fz={24} fw={700} mt={4}>
            <CountUp value={value} decimals={decimals} prefix={prefix} />
          </Text>
        </div>
        {icon && (
          <ThemeIcon variant="light" color={color} size={44} radius="md">
            {icon}
          </ThemeIcon>
        )}
      </Group>
      <Group justify="space-between" align="flex-end" mt="xs" wrap="nowrap">
        {note ? (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        ) : (
          <span />
        )}
        {series && <Sparkline values={series} label={title} color={`var(--mantine-color-${color}-6)`} />}
      </Group>
    </Card>
  );
}
