import type { MailEvent } from '@aporta/domain';

/** One event's template: the subject, the body (paragraphs separated by a blank line) and the link's button. */
export interface MailTemplateText {
  subject: string;
  body: string;
  action: string;
}

/** The mail texts of one language (see ../mail-templates.ts); `{{app}}` is the institution's name. */
export interface MailLocale {
  /** The last line of every mail. */
  footer: string;
  /** Where a user chooses which mails reach them (mails addressed to a user). */
  preferences: string;
  /** Above the written-out address, for mail programs that do not show the button. */
  linkHelp: string;
  /** The daily digest (modules/mail/digest.ts): its subject, the line above its list and its button. */
  digestSubject: string;
  digestIntro: string;
  digestAction: string;
  events: Record<MailEvent, MailTemplateText>;
}
