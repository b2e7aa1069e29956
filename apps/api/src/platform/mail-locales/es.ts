import type { MailLocale } from './locale.ts';

/** Spanish, the product's language: the reference every other language's placeholders are checked against. */
export const es: MailLocale = {
  footer: 'Mensaje automático de {{app}}. Por favor no responda a este correo.',
  preferences: 'Puede elegir qué avisos recibe por correo en su perfil, en «Preferencias de correo».',
  linkHelp: 'Si el botón no funciona, copie esta dirección en su navegador:',
  digestSubject: 'Resumen diario de {{app}} del {{date, date}}',
  digestIntro: 'Estos son los avisos que recibió en {{app}} el {{date, date}}:',
  digestAction: 'Abrir {{app}}',
  events: {
    'planilla.observed': {
      subject: 'Planilla observada: {{entity}}, {{period, period}}',
      body: 'La planilla de {{entity}} del período {{period, period}} fue observada durante su revisión.\n\nRevise las observaciones, corrija lo necesario y envíela de nuevo.',
      action: 'Ver la planilla',
    },
    'planilla.approved': {
      subject: 'Planilla aprobada: {{entity}}, {{period, period}}',
      body: 'La planilla de {{entity}} del período {{period, period}} fue aprobada.\n\nPuede consultarla, junto con su orden de pago, en {{app}}.',
      action: 'Ver la planilla',
    },
    'planilla.returned': {
      subject: 'Planilla devuelta: {{entity}}, {{period, period}}',
      body: 'La planilla de {{entity}} del período {{period, period}} le fue devuelta para corrección.\n\nMotivo: {{reason}}',
      action: 'Corregir la planilla',
    },
    'order.issued': {
      subject: 'Orden de pago {{reference}} emitida',
      body: 'Se emitió la orden de pago {{reference}} de {{entity}} por {{amount, money}}, con vencimiento el {{due, date}}.\n\nLa orden va adjunta en PDF con su referencia para pagar en el banco.',
      action: 'Ver la orden de pago',
    },
    'order.dueSoon': {
      subject: 'La orden de pago {{reference}} vence el {{due, date}}',
      body: 'La orden de pago {{reference}} de {{entity}}, con saldo de {{amount, money}}, vence el {{due, date}} (días hábiles restantes: {{days, number}}).\n\nPague a tiempo para evitar intereses por mora.',
      action: 'Ver la orden de pago',
    },
    'agreement.instalmentDueSoon': {
      subject: 'Cuota {{instalment, number}} del convenio {{agreement}} vence el {{due, date}}',
      body: 'La cuota {{instalment, number}} del convenio de pago {{agreement}} de {{entity}}, por {{amount, money}}, vence el {{due, date}} (días hábiles restantes: {{days, number}}).\n\nPague a tiempo para mantener el convenio al día.',
      action: 'Ver el convenio',
    },
    'agreement.default': {
      subject: 'Convenio {{agreement}} en incumplimiento',
      body: 'El convenio de pago {{agreement}} de {{entity}} está en incumplimiento desde el {{since, date}}, con {{amount, money}} en cuotas vencidas.\n\nRegularice el pago lo antes posible; el incumplimiento puede dar lugar a acciones de cobro.',
      action: 'Ver el convenio',
    },
    'payment.registered': {
      subject: 'Pago registrado: {{amount, money}} de {{entity}}',
      body: 'Se registró el pago de {{amount, money}} de {{entity}} a la orden {{reference}} el {{date, date}}.\n\nEl recibo {{receipt}} va adjunto en PDF.',
      action: 'Ver el recibo',
    },
    'survival.dueSoon': {
      subject: 'Controles de supervivencia por vencer: {{count, number}}',
      body: 'Controles de supervivencia de pensionados que vencen a más tardar el {{due, date}}: {{count, number}}.\n\nRevíselos a tiempo para no suspender pensiones por falta de control.',
      action: 'Ver los controles',
    },
    'survival.overdue': {
      subject: 'Controles de supervivencia vencidos: {{count, number}}',
      body: 'Controles de supervivencia de pensionados vencidos al {{asOf, date}}: {{count, number}}.\n\nLas pensiones sin control vigente pueden quedar suspendidas.',
      action: 'Ver los controles',
    },
    'signing.waiting': {
      subject: 'Documento por firmar: {{document}}',
      body: '{{requester}} le pidió firmar el documento «{{document}}».\n\nFírmelo o rechácelo desde {{app}}.',
      action: 'Abrir el documento',
    },
    'signing.reminder': {
      subject: 'Recordatorio: «{{document}}» espera su firma',
      body: 'El documento «{{document}}», enviado por {{requester}}, espera su firma desde el {{since, date}}.',
      action: 'Abrir el documento',
    },
    'workflow.assigned': {
      subject: 'Solicitud asignada: {{request}}',
      body: 'Se le asignó la solicitud {{request}} ({{flow}}) en el paso «{{step}}».',
      action: 'Ver la solicitud',
    },
    'job.finished': {
      subject: 'Proceso terminado: {{job}}',
      body: 'El proceso «{{job}}» que usted inició terminó.\n\nAbra el enlace para ver su resultado o descargar el archivo.',
      action: 'Ver el resultado',
    },
    'arrears.notice': {
      subject: 'Aviso de mora: {{entity}}',
      body: 'Según nuestros registros, al {{asOf, date}} {{entity}} adeuda {{amount, money}} en aportes al plan de prestaciones.\n\nAdjuntamos el aviso con el detalle por orden de pago, las formas de pago y cómo suscribir un convenio de pago. Si ya pagó, por favor ignore este aviso.',
      action: 'Ver el estado de cuenta',
    },
    'auth.passwordReset': {
      subject: 'Restablecer su contraseña de {{app}}',
      body: 'Hola, {{name}}: recibimos una solicitud para restablecer la contraseña de su cuenta en {{app}}.\n\nAbra el enlace en los próximos {{minutes, number}} minutos para elegir una contraseña nueva; sirve una sola vez. Si usted no lo pidió, ignore este mensaje: su contraseña no cambia.',
      action: 'Elegir una contraseña nueva',
    },
  },
};
