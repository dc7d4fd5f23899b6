/**
 * Outgoing mail (magic links, password resets): nodemailer over SMTP_URL. Without SMTP_URL (development only: the
 * production check refuses to start without it) each message's link is written to the server log instead, with a
 * line saying that mail is not configured.
 */
import nodemailer from 'nodemailer';

/** One message: plain text, and the link it carries (logged when mail is not configured). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  link: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** True when messages really leave (SMTP_URL is set). */
  readonly configured: boolean;
}

/** The mailer for SMTP_URL, or the logging one when it is null. */
export function createMailer(settings: { smtpUrl: string | null; from: string }, log: (line: string) => void = console.log): Mailer {
  if (settings.smtpUrl === null) {
    return {
      configured: false,
      send(message) {
        log(`Mail is not configured (set SMTP_URL): "${message.subject}" for ${message.to} was not sent. Its link: ${message.link}`);
        return Promise.resolve();
      },
    };
  }
  const transport = nodemailer.createTransport(settings.smtpUrl);
  return {
    configured: true,
    async send(message) {
      await transport.sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}
