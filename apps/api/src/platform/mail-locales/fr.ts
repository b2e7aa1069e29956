import type { MailLocale } from './locale.ts';

export const fr: MailLocale = {
  footer: 'Message automatique de {{app}}. Merci de ne pas répondre à ce courriel.',
  preferences: 'Vous pouvez choisir les avis reçus par courriel dans votre profil, sous « Préférences de courriel ».',
  linkHelp: 'Si le bouton ne fonctionne pas, copiez cette adresse dans votre navigateur :',
  digestSubject: 'Résumé quotidien de {{app}} du {{date, date}}',
  digestIntro: 'Voici les avis que vous avez reçus dans {{app}} le {{date, date}} :',
  digestAction: 'Ouvrir {{app}}',
  events: {
    'planilla.observed': {
      subject: 'Feuille de paie avec observations : {{entity}}, {{period, period}}',
      body: 'La feuille de paie de {{entity}} pour la période {{period, period}} a reçu des observations lors de sa révision.\n\nConsultez les observations, corrigez ce qui est nécessaire et soumettez-la à nouveau.',
      action: 'Voir la feuille de paie',
    },
    'planilla.approved': {
      subject: 'Feuille de paie approuvée : {{entity}}, {{period, period}}',
      body: 'La feuille de paie de {{entity}} pour la période {{period, period}} a été approuvée.\n\nVous pouvez la consulter, avec son ordre de paiement, dans {{app}}.',
      action: 'Voir la feuille de paie',
    },
    'planilla.returned': {
      subject: 'Feuille de paie renvoyée : {{entity}}, {{period, period}}',
      body: 'La feuille de paie de {{entity}} pour la période {{period, period}} vous a été renvoyée pour correction.\n\nMotif : {{reason}}',
      action: 'Corriger la feuille de paie',
    },
    'order.issued': {
      subject: 'Ordre de paiement {{reference}} émis',
      body: 'L’ordre de paiement {{reference}} de {{entity}} a été émis pour {{amount, money}}, avec échéance le {{due, date}}.\n\nL’ordre est joint en PDF avec sa référence pour payer à la banque.',
      action: 'Voir l’ordre de paiement',
    },
    'order.dueSoon': {
      subject: 'L’ordre de paiement {{reference}} arrive à échéance le {{due, date}}',
      body: 'L’ordre de paiement {{reference}} de {{entity}}, avec un solde de {{amount, money}}, arrive à échéance le {{due, date}} (jours ouvrables restants : {{days, number}}).\n\nPayez à temps pour éviter des intérêts de retard.',
      action: 'Voir l’ordre de paiement',
    },
    'agreement.instalmentDueSoon': {
      subject: 'Échéance {{instalment, number}} de la convention {{agreement}} le {{due, date}}',
      body: 'L’échéance {{instalment, number}} de la convention de paiement {{agreement}} de {{entity}}, de {{amount, money}}, est due le {{due, date}} (jours ouvrables restants : {{days, number}}).\n\nPayez à temps pour maintenir la convention à jour.',
      action: 'Voir la convention',
    },
    'agreement.default': {
      subject: 'Convention {{agreement}} en défaut',
      body: 'La convention de paiement {{agreement}} de {{entity}} est en défaut depuis le {{since, date}}, avec {{amount, money}} d’échéances impayées.\n\nRégularisez le paiement dès que possible ; le défaut peut entraîner des poursuites de recouvrement.',
      action: 'Voir la convention',
    },
    'payment.registered': {
      subject: 'Paiement enregistré : {{amount, money}} de {{entity}}',
      body: 'Le paiement de {{amount, money}} de {{entity}} pour l’ordre {{reference}} a été enregistré le {{date, date}}.\n\nLe reçu {{receipt}} est joint en PDF.',
      action: 'Voir le reçu',
    },
    'survival.dueSoon': {
      subject: 'Contrôles de vie arrivant à échéance : {{count, number}}',
      body: 'Contrôles de vie des pensionnés à effectuer au plus tard le {{due, date}} : {{count, number}}.\n\nTraitez-les à temps pour qu’aucune pension ne soit suspendue faute de contrôle.',
      action: 'Voir les contrôles',
    },
    'survival.overdue': {
      subject: 'Contrôles de vie en retard : {{count, number}}',
      body: 'Contrôles de vie des pensionnés en retard au {{asOf, date}} : {{count, number}}.\n\nLes pensions sans contrôle en cours peuvent être suspendues.',
      action: 'Voir les contrôles',
    },
    'signing.waiting': {
      subject: 'Document à signer : {{document}}',
      body: '{{requester}} vous a demandé de signer le document « {{document}} ».\n\nSignez-le ou refusez-le dans {{app}}.',
      action: 'Ouvrir le document',
    },
    'signing.reminder': {
      subject: 'Rappel : « {{document}} » attend votre signature',
      body: 'Le document « {{document}} », envoyé par {{requester}}, attend votre signature depuis le {{since, date}}.',
      action: 'Ouvrir le document',
    },
    'workflow.assigned': {
      subject: 'Demande qui vous est attribuée : {{request}}',
      body: 'La demande {{request}} ({{flow}}) vous a été attribuée à l’étape « {{step}} ».',
      action: 'Voir la demande',
    },
    'job.finished': {
      subject: 'Traitement terminé : {{job}}',
      body: 'Le traitement « {{job}} » que vous avez lancé est terminé.\n\nOuvrez le lien pour voir son résultat ou télécharger le fichier.',
      action: 'Voir le résultat',
    },
    'arrears.notice': {
      subject: 'Avis de retard de paiement : {{entity}}',
      body: 'Selon nos registres, au {{asOf, date}}, {{entity}} doit {{amount, money}} de cotisations au régime de prestations.\n\nVous trouverez ci-joint l’avis avec le détail par ordre de paiement, les modes de paiement et la manière de conclure une convention de paiement. Si vous avez déjà payé, veuillez ne pas tenir compte de cet avis.',
      action: 'Voir le relevé de compte',
    },
    'auth.passwordReset': {
      subject: 'Réinitialiser votre mot de passe {{app}}',
      body: 'Bonjour {{name}}, nous avons reçu une demande de réinitialisation du mot de passe de votre compte {{app}}.\n\nOuvrez le lien dans les {{minutes, number}} prochaines minutes pour choisir un nouveau mot de passe ; il ne sert qu’une fois. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe ne change pas.',
      action: 'Choisir un nouveau mot de passe',
    },
  },
};
