import type { MailLocale } from './locale.ts';

/** German (the web app's language code "gr"). */
export const gr: MailLocale = {
  footer: 'Automatische Nachricht von {{app}}. Bitte antworten Sie nicht auf diese E-Mail.',
  preferences: 'In Ihrem Profil unter „E-Mail-Einstellungen“ wählen Sie, welche Hinweise Sie per E-Mail erhalten.',
  linkHelp: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diese Adresse in Ihren Browser:',
  digestSubject: 'Tägliche Zusammenfassung von {{app}} vom {{date, date}}',
  digestIntro: 'Dies sind die Hinweise, die Sie am {{date, date}} in {{app}} erhalten haben:',
  digestAction: '{{app}} öffnen',
  events: {
    'planilla.observed': {
      subject: 'Gehaltsliste mit Beanstandungen: {{entity}}, {{period, period}}',
      body: 'Die Gehaltsliste von {{entity}} für {{period, period}} wurde bei der Prüfung beanstandet.\n\nPrüfen Sie die Beanstandungen, korrigieren Sie das Nötige und reichen Sie sie erneut ein.',
      action: 'Gehaltsliste ansehen',
    },
    'planilla.approved': {
      subject: 'Gehaltsliste genehmigt: {{entity}}, {{period, period}}',
      body: 'Die Gehaltsliste von {{entity}} für {{period, period}} wurde genehmigt.\n\nSie können sie zusammen mit ihrem Zahlungsauftrag in {{app}} einsehen.',
      action: 'Gehaltsliste ansehen',
    },
    'planilla.returned': {
      subject: 'Gehaltsliste zurückgegeben: {{entity}}, {{period, period}}',
      body: 'Die Gehaltsliste von {{entity}} für {{period, period}} wurde Ihnen zur Korrektur zurückgegeben.\n\nGrund: {{reason}}',
      action: 'Gehaltsliste korrigieren',
    },
    'order.issued': {
      subject: 'Zahlungsauftrag {{reference}} ausgestellt',
      body: 'Der Zahlungsauftrag {{reference}} von {{entity}} über {{amount, money}} wurde ausgestellt, fällig am {{due, date}}.\n\nDer Auftrag ist als PDF mit seiner Referenz für die Zahlung bei der Bank beigefügt.',
      action: 'Zahlungsauftrag ansehen',
    },
    'order.dueSoon': {
      subject: 'Zahlungsauftrag {{reference}} ist am {{due, date}} fällig',
      body: 'Der Zahlungsauftrag {{reference}} von {{entity}} mit einem offenen Betrag von {{amount, money}} ist am {{due, date}} fällig (verbleibende Werktage: {{days, number}}).\n\nZahlen Sie rechtzeitig, um Verzugszinsen zu vermeiden.',
      action: 'Zahlungsauftrag ansehen',
    },
    'agreement.instalmentDueSoon': {
      subject: 'Rate {{instalment, number}} der Vereinbarung {{agreement}} ist am {{due, date}} fällig',
      body: 'Die Rate {{instalment, number}} der Zahlungsvereinbarung {{agreement}} von {{entity}} über {{amount, money}} ist am {{due, date}} fällig (verbleibende Werktage: {{days, number}}).\n\nZahlen Sie rechtzeitig, damit die Vereinbarung auf dem aktuellen Stand bleibt.',
      action: 'Vereinbarung ansehen',
    },
    'agreement.default': {
      subject: 'Vereinbarung {{agreement}} im Verzug',
      body: 'Die Zahlungsvereinbarung {{agreement}} von {{entity}} ist seit dem {{since, date}} im Verzug, mit {{amount, money}} an überfälligen Raten.\n\nBegleichen Sie die Zahlung so bald wie möglich; der Verzug kann zu Inkassomaßnahmen führen.',
      action: 'Vereinbarung ansehen',
    },
    'payment.registered': {
      subject: 'Zahlung erfasst: {{amount, money}} von {{entity}}',
      body: 'Am {{date, date}} wurde die Zahlung von {{amount, money}} von {{entity}} auf den Auftrag {{reference}} erfasst.\n\nDie Quittung {{receipt}} ist als PDF beigefügt.',
      action: 'Quittung ansehen',
    },
    'survival.dueSoon': {
      subject: 'Bald fällige Lebensnachweise: {{count, number}}',
      body: 'Lebensnachweise von Rentenempfängern, die spätestens am {{due, date}} fällig sind: {{count, number}}.\n\nBearbeiten Sie sie rechtzeitig, damit keine Rente mangels Nachweis ausgesetzt wird.',
      action: 'Nachweise ansehen',
    },
    'survival.overdue': {
      subject: 'Überfällige Lebensnachweise: {{count, number}}',
      body: 'Am {{asOf, date}} überfällige Lebensnachweise von Rentenempfängern: {{count, number}}.\n\nRenten ohne gültigen Nachweis können ausgesetzt werden.',
      action: 'Nachweise ansehen',
    },
    'signing.waiting': {
      subject: 'Zu unterschreibendes Dokument: {{document}}',
      body: '{{requester}} hat Sie gebeten, das Dokument „{{document}}“ zu unterschreiben.\n\nUnterschreiben oder lehnen Sie es in {{app}} ab.',
      action: 'Dokument öffnen',
    },
    'signing.reminder': {
      subject: 'Erinnerung: „{{document}}“ wartet auf Ihre Unterschrift',
      body: 'Das Dokument „{{document}}“, gesendet von {{requester}}, wartet seit dem {{since, date}} auf Ihre Unterschrift.',
      action: 'Dokument öffnen',
    },
    'workflow.assigned': {
      subject: 'Ihnen zugewiesener Antrag: {{request}}',
      body: 'Der Antrag {{request}} ({{flow}}) wurde Ihnen im Schritt „{{step}}“ zugewiesen.',
      action: 'Antrag ansehen',
    },
    'job.finished': {
      subject: 'Vorgang abgeschlossen: {{job}}',
      body: 'Der von Ihnen gestartete Vorgang „{{job}}“ ist abgeschlossen.\n\nÖffnen Sie den Link, um das Ergebnis zu sehen oder die Datei herunterzuladen.',
      action: 'Ergebnis ansehen',
    },
    'arrears.notice': {
      subject: 'Mahnung wegen Zahlungsrückstand: {{entity}}',
      body: 'Laut unseren Unterlagen schuldet {{entity}} zum {{asOf, date}} {{amount, money}} an Beiträgen zum Versorgungsplan.\n\nIm Anhang finden Sie die Mahnung mit den Einzelheiten je Zahlungsauftrag, den Zahlungswegen und dem Weg zu einer Zahlungsvereinbarung. Falls Sie bereits gezahlt haben, betrachten Sie diese Mahnung bitte als gegenstandslos.',
      action: 'Kontoauszug ansehen',
    },
    'auth.passwordReset': {
      subject: 'Ihr Passwort für {{app}} zurücksetzen',
      body: 'Hallo {{name}}, wir haben eine Anfrage erhalten, das Passwort Ihres Kontos bei {{app}} zurückzusetzen.\n\nÖffnen Sie den Link innerhalb der nächsten {{minutes, number}} Minuten, um ein neues Passwort zu wählen; er gilt nur einmal. Falls Sie das nicht angefordert haben, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.',
      action: 'Neues Passwort wählen',
    },
  },
};
