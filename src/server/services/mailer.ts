import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  /** Addition (bots' e-mails): the sender; unset is SMTP_FROM. */
  from?: string;
  /** Addition (bots' e-mails): a Message-ID of the caller's, so a mail sent again is known for the same one. */
  messageId?: string;
  to: string;
  /** Addition (bots' SendEmail node): comma-separated copies. */
  cc?: string;
  bcc?: string;
  subject: string;
  text: string;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Mails kept when no SMTP server is configured (local runs and tests read them). */
  readonly outbox: Mail[];
}

/** SMTP when SMTP_URL is set; otherwise mails are kept in memory and only their recipients are logged. */
export function createMailer(smtpUrl: string | undefined, log: FastifyBaseLogger, from = 'Parley <no-reply@parley.local>'): Mailer {
  const outbox: Mail[] = [];
  if (!smtpUrl) {
    return {
      outbox,
      async send(mail) {
        outbox.push(mail);
        if (outbox.length > 1000) outbox.shift();
        log.info({ to: mail.to, subject: mail.subject }, 'SMTP_URL is not set: e-mail kept locally, not sent');
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    outbox,
    async send(mail) {
      await transport.sendMail({ ...mail, from: mail.from ?? from });
    },
  };
}
