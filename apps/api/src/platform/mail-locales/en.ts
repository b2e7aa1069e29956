import type { MailLocale } from './locale.ts';

export const en: MailLocale = {
  footer: 'Automatic message from {{app}}. Please do not reply to this e-mail.',
  preferences: 'You can choose which notices reach you by e-mail in your profile, under “E-mail preferences”.',
  linkHelp: 'If the button does not work, copy this address into your browser:',
  digestSubject: '{{app}} daily digest for {{date, date}}',
  digestIntro: 'These are the notices you received in {{app}} on {{date, date}}:',
  digestAction: 'Open {{app}}',
  events: {
    'planilla.observed': {
      subject: 'Payroll sheet with observations: {{entity}}, {{period, period}}',
      body: 'The payroll sheet of {{entity}} for {{period, period}} received observations during its review.\n\nReview the observations, correct what is needed and submit it again.',
      action: 'View the payroll sheet',
    },
    'planilla.approved': {
      subject: 'Payroll sheet approved: {{entity}}, {{period, period}}',
      body: 'The payroll sheet of {{entity}} for {{period, period}} was approved.\n\nYou can view it, together with its payment order, in {{app}}.',
      action: 'View the payroll sheet',
    },
    'planilla.returned': {
      subject: 'Payroll sheet returned: {{entity}}, {{period, period}}',
      body: 'The payroll sheet of {{entity}} for {{period, period}} was returned to you for correction.\n\nReason: {{reason}}',
      action: 'Correct the payroll sheet',
    },
    'order.issued': {
      subject: 'Payment order {{reference}} issued',
      body: 'Payment order {{reference}} of {{entity}} was issued for {{amount, money}}, due on {{due, date}}.\n\nThe order is attached as a PDF with its reference for paying at the bank.',
      action: 'View the payment order',
    },
    'order.dueSoon': {
      subject: 'Payment order {{reference}} is due on {{due, date}}',
      body: 'Payment order {{reference}} of {{entity}}, with a balance of {{amount, money}}, is due on {{due, date}} (business days left: {{days, number}}).\n\nPay on time to avoid late-payment interest.',
      action: 'View the payment order',
    },
    'agreement.instalmentDueSoon': {
      subject: 'Instalment {{instalment, number}} of agreement {{agreement}} is due on {{due, date}}',
      body: 'Instalment {{instalment, number}} of payment agreement {{agreement}} of {{entity}}, for {{amount, money}}, is due on {{due, date}} (business days left: {{days, number}}).\n\nPay on time to keep the agreement up to date.',
      action: 'View the agreement',
    },
    'agreement.default': {
      subject: 'Agreement {{agreement}} in default',
      body: 'Payment agreement {{agreement}} of {{entity}} has been in default since {{since, date}}, with {{amount, money}} in overdue instalments.\n\nPlease settle the payment as soon as possible; the default may lead to collection proceedings.',
      action: 'View the agreement',
    },
    'payment.registered': {
      subject: 'Payment registered: {{amount, money}} from {{entity}}',
      body: 'A payment of {{amount, money}} from {{entity}} to order {{reference}} was registered on {{date, date}}.\n\nReceipt {{receipt}} is attached as a PDF.',
      action: 'View the receipt',
    },
    'survival.dueSoon': {
      subject: 'Survival checks coming due: {{count, number}}',
      body: 'Pensioners’ survival checks due by {{due, date}}: {{count, number}}.\n\nReview them in time so that no pension is suspended for lack of a check.',
      action: 'View the checks',
    },
    'survival.overdue': {
      subject: 'Overdue survival checks: {{count, number}}',
      body: 'Pensioners’ survival checks overdue as of {{asOf, date}}: {{count, number}}.\n\nPensions without a current check may be suspended.',
      action: 'View the checks',
    },
    'signing.waiting': {
      subject: 'Document to sign: {{document}}',
      body: '{{requester}} asked you to sign the document “{{document}}”.\n\nSign it or decline it in {{app}}.',
      action: 'Open the document',
    },
    'signing.reminder': {
      subject: 'Reminder: “{{document}}” is waiting for your signature',
      body: 'The document “{{document}}”, sent by {{requester}}, has been waiting for your signature since {{since, date}}.',
      action: 'Open the document',
    },
    'workflow.assigned': {
      subject: 'Request assigned to you: {{request}}',
      body: 'Request {{request}} ({{flow}}) was assigned to you at the step “{{step}}”.',
      action: 'View the request',
    },
    'job.finished': {
      subject: 'Process finished: {{job}}',
      body: 'The process “{{job}}” you started has finished.\n\nOpen the link to see its result or download the file.',
      action: 'View the result',
    },
    'arrears.notice': {
      subject: 'Arrears notice: {{entity}}',
      body: 'According to our records, as of {{asOf, date}} {{entity}} owes {{amount, money}} in contributions to the benefits plan.\n\nAttached is the notice with the detail by payment order, the ways to pay and how to sign a payment agreement. If you have already paid, please disregard this notice.',
      action: 'View the account statement',
    },
    'auth.passwordReset': {
      subject: 'Reset your {{app}} password',
      body: 'Hello, {{name}}: we received a request to reset the password of your {{app}} account.\n\nOpen the link within the next {{minutes, number}} minutes to choose a new password; it works only once. If you did not ask for it, ignore this message: your password does not change.',
      action: 'Choose a new password',
    },
  },
};
