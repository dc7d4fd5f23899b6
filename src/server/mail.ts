/**
 * Outgoing mail (magic links, password resets): nodemailer over SMTP_URL. Without SMTP_URL (development only: the
 * production check refuses to start without it) each message's link is written to the server log instead, with a
 * line saying that mail is not configured.
 */
import nodemailer from 'nodemailer';
import type { DigestMail } from '../lib/domain/alerts/alerts';

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

/**
 * Hands messages to a mailer without keeping the caller waiting, so a request answers in the same time whether or not
 * it sends mail (the answer never tells an address with an account from one without). A failure is logged.
 */
export class BackgroundMail {
  /** Mail handed over and not yet sent or failed. */
  readonly #sending = new Set<Promise<void>>();

  constructor(
    private readonly mailer: Mailer,
    private readonly log: (line: string) => void = console.error,
  ) {}

  send(message: MailMessage): void {
    const sending: Promise<void> = new Promise<void>((resolve) => resolve(this.mailer.send(message)))
      .catch((error: Error) => this.log(`The mail "${message.subject}" to ${message.to} could not be sent: ${error.message}`))
      .finally(() => this.#sending.delete(sending));
    this.#sending.add(sending);
  }

  /** Resolves once every mail handed over so far is sent or has failed (a closing process waits for it). */
  async settled(): Promise<void> {
    await Promise.all([...this.#sending]);
  }
}

/** SMTP connections the digest sender keeps open. */
export const DIGEST_CONNECTIONS = 10;

/** Sends the digests the alerts step hands over: HTML and text, with the one-click unsubscribe address. */
export interface DigestSender {
  send(mail: DigestMail, id: string): Promise<void>;
  /** Closes the pooled connection (a command line's last step). */
  close(): void;
}

/**
 * The digest sender for SMTP_URL: one pooled connection, the `List-Unsubscribe` and `List-Unsubscribe-Post` headers
 * (RFC 8058 one-click), and a Message-ID made from the queue's id. Without SMTP_URL each digest is logged, not sent.
 */
export function createDigestSender(settings: { smtpUrl: string | null; from: string; siteUrl: string }, log: (line: string) => void = console.log): DigestSender {
  if (settings.smtpUrl === null) {
    return {
      send(mail) {
        log(`Mail is not configured (set SMTP_URL): the alert digest "${mail.subject}" for ${mail.to} was not sent.`);
        return Promise.resolve();
      },
      close: () => undefined,
    };
  }
  const url = new URL(settings.smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  // As many connections as the alerts step sends digests at once (DIGEST_RETRY.concurrency); SMTP_URL may say otherwise.
  if (!url.searchParams.has('maxConnections')) url.searchParams.set('maxConnections', String(DIGEST_CONNECTIONS));
  const transport = nodemailer.createTransport(url.href);
  const host = new URL(settings.siteUrl).hostname;
  return {
    async send(mail, id) {
      await transport.sendMail({
      from: settings.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<digest-${id}@${host}>`,
      headers: { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
    },
    close: () => transport.close(),
  };
}
