import type { MailLocale } from './locale.ts';

export const ar: MailLocale = {
  footer: 'رسالة آلية من {{app}}. يُرجى عدم الرد على هذا البريد.',
  preferences: 'يمكنك اختيار الإشعارات التي تصلك بالبريد من ملفك الشخصي، في «تفضيلات البريد».',
  linkHelp: 'إذا لم يعمل الزر، انسخ هذا العنوان في المتصفح:',
  digestSubject: 'الملخص اليومي من {{app}} ليوم {{date, date}}',
  digestIntro: 'هذه هي الإشعارات التي تلقيتها في {{app}} يوم {{date, date}}:',
  digestAction: 'فتح {{app}}',
  events: {
    'planilla.observed': {
      subject: 'ملاحظات على كشف الرواتب: {{entity}}، {{period, period}}',
      body: 'أُبديت ملاحظات على كشف رواتب {{entity}} عن الفترة {{period, period}} أثناء مراجعته.\n\nراجع الملاحظات وصحّح ما يلزم ثم أرسل الكشف من جديد.',
      action: 'عرض كشف الرواتب',
    },
    'planilla.approved': {
      subject: 'اعتُمد كشف الرواتب: {{entity}}، {{period, period}}',
      body: 'اعتُمد كشف رواتب {{entity}} عن الفترة {{period, period}}.\n\nيمكنك الاطلاع عليه مع أمر الدفع الخاص به في {{app}}.',
      action: 'عرض كشف الرواتب',
    },
    'planilla.returned': {
      subject: 'أُعيد كشف الرواتب: {{entity}}، {{period, period}}',
      body: 'أُعيد إليك كشف رواتب {{entity}} عن الفترة {{period, period}} لتصحيحه.\n\nالسبب: {{reason}}',
      action: 'تصحيح كشف الرواتب',
    },
    'order.issued': {
      subject: 'صدر أمر الدفع {{reference}}',
      body: 'صدر أمر الدفع {{reference}} الخاص بـ {{entity}} بمبلغ {{amount, money}}، ويستحق في {{due, date}}.\n\nالأمر مرفق بصيغة PDF مع مرجعه للدفع في البنك.',
      action: 'عرض أمر الدفع',
    },
    'order.dueSoon': {
      subject: 'يستحق أمر الدفع {{reference}} في {{due, date}}',
      body: 'يستحق أمر الدفع {{reference}} الخاص بـ {{entity}}، برصيد {{amount, money}}، في {{due, date}} (أيام العمل المتبقية: {{days, number}}).\n\nادفع في الموعد لتجنّب فوائد التأخير.',
      action: 'عرض أمر الدفع',
    },
    'agreement.instalmentDueSoon': {
      subject: 'يستحق القسط {{instalment, number}} من الاتفاق {{agreement}} في {{due, date}}',
      body: 'يستحق القسط {{instalment, number}} من اتفاق الدفع {{agreement}} الخاص بـ {{entity}}، بمبلغ {{amount, money}}، في {{due, date}} (أيام العمل المتبقية: {{days, number}}).\n\nادفع في الموعد ليبقى الاتفاق ساريًا.',
      action: 'عرض الاتفاق',
    },
    'agreement.default': {
      subject: 'الاتفاق {{agreement}} في حالة تخلّف عن السداد',
      body: 'اتفاق الدفع {{agreement}} الخاص بـ {{entity}} في حالة تخلّف عن السداد منذ {{since, date}}، وعليه أقساط متأخرة بمبلغ {{amount, money}}.\n\nسوِّ المبلغ في أقرب وقت؛ فقد يؤدي التخلّف إلى إجراءات تحصيل.',
      action: 'عرض الاتفاق',
    },
    'payment.registered': {
      subject: 'سُجّلت دفعة: {{amount, money}} من {{entity}}',
      body: 'سُجّلت في {{date, date}} دفعة بمبلغ {{amount, money}} من {{entity}} لأمر الدفع {{reference}}.\n\nالإيصال {{receipt}} مرفق بصيغة PDF.',
      action: 'عرض الإيصال',
    },
    'survival.dueSoon': {
      subject: 'عمليات تحقق من الحياة يقترب موعدها: {{count, number}}',
      body: 'عمليات التحقق من حياة المتقاعدين المستحقة في موعد أقصاه {{due, date}}: {{count, number}}.\n\nراجعها في الوقت المناسب كي لا يُوقف أي معاش لعدم التحقق.',
      action: 'عرض عمليات التحقق',
    },
    'survival.overdue': {
      subject: 'عمليات تحقق من الحياة متأخرة: {{count, number}}',
      body: 'عمليات التحقق من حياة المتقاعدين المتأخرة حتى {{asOf, date}}: {{count, number}}.\n\nقد تُوقف المعاشات التي ليس لها تحقق سارٍ.',
      action: 'عرض عمليات التحقق',
    },
    'signing.waiting': {
      subject: 'مستند بانتظار توقيعك: {{document}}',
      body: 'طلب منك {{requester}} توقيع المستند «{{document}}».\n\nوقّعه أو ارفضه من {{app}}.',
      action: 'فتح المستند',
    },
    'signing.reminder': {
      subject: 'تذكير: «{{document}}» بانتظار توقيعك',
      body: 'المستند «{{document}}» الذي أرسله {{requester}} بانتظار توقيعك منذ {{since, date}}.',
      action: 'فتح المستند',
    },
    'workflow.assigned': {
      subject: 'أُسند إليك الطلب {{request}}',
      body: 'أُسند إليك الطلب {{request}} ({{flow}}) في المرحلة «{{step}}».',
      action: 'عرض الطلب',
    },
    'job.finished': {
      subject: 'انتهت العملية: {{job}}',
      body: 'انتهت العملية «{{job}}» التي بدأتها.\n\nافتح الرابط لعرض نتيجتها أو تنزيل الملف.',
      action: 'عرض النتيجة',
    },
    'arrears.notice': {
      subject: 'إشعار بالتأخر في السداد: {{entity}}',
      body: 'وفقًا لسجلاتنا، حتى {{asOf, date}} تبلغ مستحقات {{entity}} من الاشتراكات في خطة المعاشات {{amount, money}}.\n\nنرفق الإشعار مع التفاصيل حسب أمر الدفع وطرق الدفع وكيفية إبرام اتفاق دفع. إذا كنت قد دفعت بالفعل، فيُرجى تجاهل هذا الإشعار.',
      action: 'عرض كشف الحساب',
    },
    'auth.passwordReset': {
      subject: 'إعادة تعيين كلمة المرور في {{app}}',
      body: 'مرحبًا {{name}}، تلقّينا طلبًا لإعادة تعيين كلمة مرور حسابك في {{app}}.\n\nافتح الرابط خلال الدقائق الـ {{minutes, number}} القادمة لاختيار كلمة مرور جديدة؛ وهو صالح لمرة واحدة. إذا لم تطلب ذلك فتجاهل هذه الرسالة: لن تتغير كلمة مرورك.',
      action: 'اختيار كلمة مرور جديدة',
    },
  },
};
