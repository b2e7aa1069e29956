import { count, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { notifications, users } from '../db/schema/index.ts';
import { notifyUsers } from '../modules/notifications/service.ts';

/**
 * Demo only (DEMO_DATA): a few notifications for every user, so the bell shows what real ones look
 * like. Runs once: the welcome notification marks it done (the modules' demo seeds, which run first,
 * send real ones of their own, so an empty table is not the sign).
 */
const WELCOME = 'Le damos la bienvenida a Aporta';
export async function seedShellDemo(db: Db): Promise<void> {
  const [{ n }] = await db.select({ n: count() }).from(notifications).where(eq(notifications.title, WELCOME));
  if (n > 0) return;
  const userIds = (await db.select({ id: users.id }).from(users)).map((u) => u.id);
  if (userIds.length === 0) return;
  await db.transaction(async (tx) => {
    const samples = [
      {
        type: 'info',
        title: WELCOME,
        body: 'Configure la interfaz a su gusto con el botón de engranaje.',
        link: '/',
      },
      {
        type: 'warning',
        title: 'Planilla enviada a revisión',
        body: 'Municipalidad de Mixco, planilla de enero 2026.',
        link: null,
      },
      { type: 'success', title: 'Pago registrado', body: 'Orden de pago 2026-000123 aplicada correctamente.', link: null },
      { type: 'error', title: 'Carga de planilla rechazada', body: 'El archivo tiene 3 filas con CUI inválido.', link: null },
      { type: 'info', title: 'Nuevo convenio de pago', body: 'Municipalidad de Villa Nueva, 12 cuotas.', link: null },
    ] as const;
    for (const s of samples) await notifyUsers({ db: tx, userIds, ...s });
  });
}
