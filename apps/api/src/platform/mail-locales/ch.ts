import type { MailLocale } from './locale.ts';

/** Simplified Chinese (the web app's language code "ch"). */
export const ch: MailLocale = {
  footer: '此邮件由 {{app}} 自动发送，请勿回复。',
  preferences: '您可以在个人资料的“邮件偏好”中选择通过邮件接收哪些通知。',
  linkHelp: '如果按钮无法使用，请将此地址复制到浏览器中：',
  digestSubject: '{{app}} 每日摘要（{{date, date}}）',
  digestIntro: '以下是您于 {{date, date}} 在 {{app}} 收到的通知：',
  digestAction: '打开 {{app}}',
  events: {
    'planilla.observed': {
      subject: '工资单有审核意见：{{entity}}，{{period, period}}',
      body: '{{entity}} {{period, period}} 的工资单在审核中收到了意见。\n\n请查看意见，修改必要内容后重新提交。',
      action: '查看工资单',
    },
    'planilla.approved': {
      subject: '工资单已批准：{{entity}}，{{period, period}}',
      body: '{{entity}} {{period, period}} 的工资单已获批准。\n\n您可以在 {{app}} 中查看该工资单及其付款单。',
      action: '查看工资单',
    },
    'planilla.returned': {
      subject: '工资单已退回：{{entity}}，{{period, period}}',
      body: '{{entity}} {{period, period}} 的工资单已退回给您修改。\n\n原因：{{reason}}',
      action: '修改工资单',
    },
    'order.issued': {
      subject: '付款单 {{reference}} 已开具',
      body: '已为 {{entity}} 开具付款单 {{reference}}，金额 {{amount, money}}，到期日 {{due, date}}。\n\n付款单以 PDF 附件形式提供，附有在银行付款所需的参考号。',
      action: '查看付款单',
    },
    'order.dueSoon': {
      subject: '付款单 {{reference}} 将于 {{due, date}} 到期',
      body: '{{entity}} 的付款单 {{reference}} 余额 {{amount, money}}，将于 {{due, date}} 到期（剩余工作日：{{days, number}}）。\n\n请按时付款，以免产生滞纳利息。',
      action: '查看付款单',
    },
    'agreement.instalmentDueSoon': {
      subject: '协议 {{agreement}} 第 {{instalment, number}} 期将于 {{due, date}} 到期',
      body: '{{entity}} 的付款协议 {{agreement}} 第 {{instalment, number}} 期，金额 {{amount, money}}，将于 {{due, date}} 到期（剩余工作日：{{days, number}}）。\n\n请按时付款，以保持协议正常履行。',
      action: '查看协议',
    },
    'agreement.default': {
      subject: '协议 {{agreement}} 已违约',
      body: '{{entity}} 的付款协议 {{agreement}} 自 {{since, date}} 起处于违约状态，逾期分期款共计 {{amount, money}}。\n\n请尽快补缴；违约可能导致催收程序。',
      action: '查看协议',
    },
    'payment.registered': {
      subject: '付款已登记：{{entity}} {{amount, money}}',
      body: '{{date, date}} 已登记 {{entity}} 针对付款单 {{reference}} 的付款 {{amount, money}}。\n\n收据 {{receipt}} 以 PDF 附件形式提供。',
      action: '查看收据',
    },
    'survival.dueSoon': {
      subject: '即将到期的生存核查：{{count, number}}',
      body: '最迟于 {{due, date}} 到期的养老金领取人生存核查：{{count, number}}。\n\n请及时处理，以免养老金因缺少核查而被暂停。',
      action: '查看核查',
    },
    'survival.overdue': {
      subject: '已逾期的生存核查：{{count, number}}',
      body: '截至 {{asOf, date}} 已逾期的养老金领取人生存核查：{{count, number}}。\n\n没有有效核查的养老金可能会被暂停。',
      action: '查看核查',
    },
    'signing.waiting': {
      subject: '待签署文件：{{document}}',
      body: '{{requester}} 请您签署文件“{{document}}”。\n\n请在 {{app}} 中签署或拒绝。',
      action: '打开文件',
    },
    'signing.reminder': {
      subject: '提醒：“{{document}}”正在等待您的签署',
      body: '由 {{requester}} 发送的文件“{{document}}”自 {{since, date}} 起等待您的签署。',
      action: '打开文件',
    },
    'workflow.assigned': {
      subject: '分配给您的申请：{{request}}',
      body: '申请 {{request}}（{{flow}}）已在“{{step}}”步骤分配给您。',
      action: '查看申请',
    },
    'job.finished': {
      subject: '任务已完成：{{job}}',
      body: '您启动的任务“{{job}}”已完成。\n\n打开链接查看结果或下载文件。',
      action: '查看结果',
    },
    'arrears.notice': {
      subject: '欠缴通知：{{entity}}',
      body: '根据我们的记录，截至 {{asOf, date}}，{{entity}} 尚欠养老金计划缴款 {{amount, money}}。\n\n随函附上通知，列明各付款单明细、付款方式以及签订付款协议的办法。如您已付款，请忽略本通知。',
      action: '查看对账单',
    },
    'auth.passwordReset': {
      subject: '重置您的 {{app}} 密码',
      body: '{{name}}，您好：我们收到了重置您 {{app}} 账户密码的请求。\n\n请在 {{minutes, number}} 分钟内打开链接设置新密码；该链接仅可使用一次。如果这不是您本人的请求，请忽略此邮件，您的密码不会改变。',
      action: '设置新密码',
    },
  },
};
