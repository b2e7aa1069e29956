import { describe, expect, it } from 'vitest';
import { tabRegistry } from './tabRegistry.ts';

describe('tabRegistry', () => {
  it('keeps the tabs in order, whatever the order modules register them in, and each value once', () => {
    const r = tabRegistry<{ value: string; order: number; label: string }>();
    r.register({ value: 'history', order: 90, label: 'Historial' });
    r.register({ value: 'data', order: 10, label: 'Datos' });
    r.register({ value: 'payments', order: 41, label: 'Pagos' });
    r.register({ value: 'data', order: 5, label: 'Otra vez' });
    expect(r.tabs.map((t) => `${t.value}:${t.label}`)).toEqual(['data:Datos', 'payments:Pagos', 'history:Historial']);
  });
});
