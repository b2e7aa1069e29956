import type { MailLocale } from './locale.ts';

export const it: MailLocale = {
  footer: 'Messaggio automatico di {{app}}. Si prega di non rispondere a questa e-mail.',
  preferences: 'Può scegliere quali avvisi ricevere per e-mail nel suo profilo, in «Preferenze e-mail».',
  linkHelp: 'Se il pulsante non funziona, copi questo indirizzo nel browser:',
  digestSubject: 'Riepilogo giornaliero di {{app}} del {{date, date}}',
  digestIntro: 'Ecco gli avvisi ricevuti in {{app}} il {{date, date}}:',
  digestAction: 'Apri {{app}}',
  events: {
    'planilla.observed': {
      subject: 'Foglio paga con osservazioni: {{entity}}, {{period, period}}',
      body: 'Il foglio paga di {{entity}} per il periodo {{period, period}} ha ricevuto osservazioni durante la revisione.\n\nControlli le osservazioni, corregga quanto necessario e lo invii di nuovo.',
      action: 'Vedi il foglio paga',
    },
    'planilla.approved': {
      subject: 'Foglio paga approvato: {{entity}}, {{period, period}}',
      body: 'Il foglio paga di {{entity}} per il periodo {{period, period}} è stato approvato.\n\nPuò consultarlo, insieme al suo ordine di pagamento, in {{app}}.',
      action: 'Vedi il foglio paga',
    },
    'planilla.returned': {
      subject: 'Foglio paga restituito: {{entity}}, {{period, period}}',
      body: 'Il foglio paga di {{entity}} per il periodo {{period, period}} le è stato restituito per la correzione.\n\nMotivo: {{reason}}',
      action: 'Correggi il foglio paga',
    },
    'order.issued': {
      subject: 'Ordine di pagamento {{reference}} emesso',
      body: 'È stato emesso l’ordine di pagamento {{reference}} di {{entity}} per {{amount, money}}, con scadenza il {{due, date}}.\n\nL’ordine è allegato in PDF con il riferimento per pagare in banca.',
      action: 'Vedi l’ordine di pagamento',
    },
    'order.dueSoon': {
      subject: 'L’ordine di pagamento {{reference}} scade il {{due, date}}',
      body: 'L’ordine di pagamento {{reference}} di {{entity}}, con un saldo di {{amount, money}}, scade il {{due, date}} (giorni lavorativi rimanenti: {{days, number}}).\n\nPaghi in tempo per evitare interessi di mora.',
      action: 'Vedi l’ordine di pagamento',
    },
    'agreement.instalmentDueSoon': {
      subject: 'La rata {{instalment, number}} dell’accordo {{agreement}} scade il {{due, date}}',
      body: 'La rata {{instalment, number}} dell’accordo di pagamento {{agreement}} di {{entity}}, di {{amount, money}}, scade il {{due, date}} (giorni lavorativi rimanenti: {{days, number}}).\n\nPaghi in tempo per mantenere l’accordo in regola.',
      action: 'Vedi l’accordo',
    },
    'agreement.default': {
      subject: 'Accordo {{agreement}} inadempiuto',
      body: 'L’accordo di pagamento {{agreement}} di {{entity}} è inadempiuto dal {{since, date}}, con {{amount, money}} di rate scadute.\n\nRegolarizzi il pagamento al più presto; l’inadempimento può dare luogo ad azioni di recupero.',
      action: 'Vedi l’accordo',
    },
    'payment.registered': {
      subject: 'Pagamento registrato: {{amount, money}} da {{entity}}',
      body: 'Il {{date, date}} è stato registrato il pagamento di {{amount, money}} da {{entity}} per l’ordine {{reference}}.\n\nLa ricevuta {{receipt}} è allegata in PDF.',
      action: 'Vedi la ricevuta',
    },
    'survival.dueSoon': {
      subject: 'Controlli di esistenza in vita in scadenza: {{count, number}}',
      body: 'Controlli di esistenza in vita dei pensionati in scadenza entro il {{due, date}}: {{count, number}}.\n\nLi esamini in tempo perché nessuna pensione venga sospesa per mancanza di controllo.',
      action: 'Vedi i controlli',
    },
    'survival.overdue': {
      subject: 'Controlli di esistenza in vita scaduti: {{count, number}}',
      body: 'Controlli di esistenza in vita dei pensionati scaduti al {{asOf, date}}: {{count, number}}.\n\nLe pensioni senza un controllo valido possono essere sospese.',
      action: 'Vedi i controlli',
    },
    'signing.waiting': {
      subject: 'Documento da firmare: {{document}}',
      body: '{{requester}} le ha chiesto di firmare il documento «{{document}}».\n\nLo firmi o lo rifiuti in {{app}}.',
      action: 'Apri il documento',
    },
    'signing.reminder': {
      subject: 'Promemoria: «{{document}}» attende la sua firma',
      body: 'Il documento «{{document}}», inviato da {{requester}}, attende la sua firma dal {{since, date}}.',
      action: 'Apri il documento',
    },
    'workflow.assigned': {
      subject: 'Richiesta assegnata: {{request}}',
      body: 'Le è stata assegnata la richiesta {{request}} ({{flow}}) nel passaggio «{{step}}».',
      action: 'Vedi la richiesta',
    },
    'job.finished': {
      subject: 'Processo terminato: {{job}}',
      body: 'Il processo «{{job}}» che ha avviato è terminato.\n\nApra il collegamento per vederne il risultato o scaricare il file.',
      action: 'Vedi il risultato',
    },
    'arrears.notice': {
      subject: 'Avviso di morosità: {{entity}}',
      body: 'Secondo i nostri registri, al {{asOf, date}} {{entity}} deve {{amount, money}} di contributi al piano previdenziale.\n\nAlleghiamo l’avviso con il dettaglio per ordine di pagamento, le modalità di pagamento e come sottoscrivere un accordo di pagamento. Se ha già pagato, ignori questo avviso.',
      action: 'Vedi l’estratto conto',
    },
    'auth.passwordReset': {
      subject: 'Reimposti la password di {{app}}',
      body: 'Buongiorno {{name}}, abbiamo ricevuto una richiesta di reimpostazione della password del suo account {{app}}.\n\nApra il collegamento entro i prossimi {{minutes, number}} minuti per scegliere una nuova password; vale una sola volta. Se non l’ha richiesto lei, ignori questo messaggio: la sua password non cambia.',
      action: 'Scegli una nuova password',
    },
  },
};
