import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail as the loopback SMTP server received it, parsed enough for assertions. */
export interface ReceivedMail {
  /** The SMTP envelope: MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
  /** Header values by lower-case name (unfolded, encoded words decoded). */
  headers: Record<string, string>;
  subject: string;
  /** The text/plain part, decoded. */
  text: string;
  /** The text/html part, decoded. */
  html: string;
  raw: string;
}

/** A real SMTP server on 127.0.0.1 (the smtp-server package), keeping every mail it accepts. */
export interface SmtpStandIn {
  /** `smtp://127.0.0.1:PORT`, for SMTP_URL. */
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** The mails to one address. */
  to(address: string): ReceivedMail[];
  /** Waits (polling, no fixed sleep) until `count` mails to `address` arrived; returns them. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Stops listening (the mail server "goes down"); start() brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stop by itself right after accepting this many mails in all (a server going down mid-run). */
  stopAfter: number | null;
  /**
   * Take the next this many mails, then drop the connection instead of answering 250: the server
   * has the mail, the client never hears so (a connection lost at the worst moment).
   */
  dropReplies: number;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** Headers and body of one MIME entity. */
function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? '' : raw.slice(at + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding = '7bit'): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8');
    }
    default:
      return body;
  }
}

/** The text and HTML parts of a message (single part or multipart, nested). */
function partsOf(entity: { headers: Record<string, string>; body: string }, out: { text: string; html: string }) {
  const type = entity.headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const chunk of entity.body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      partsOf(splitEntity(chunk.replace(/^\r\n/, '')), out);
    }
    return;
  }
  const decoded = decodeBody(entity.body, entity.headers['content-transfer-encoding']);
  if (/^text\/html/i.test(type)) out.html = decoded;
  else if (/^text\/plain/i.test(type)) out.text = decoded;
}

/** Parses one received message. */
export function parseMail(raw: string, envelope: ReceivedMail['envelope']): ReceivedMail {
  const entity = splitEntity(raw);
  const parts = { text: '', html: '' };
  partsOf(entity, parts);
  return { envelope, headers: entity.headers, subject: entity.headers.subject ?? '', ...parts, raw };
}

/** Starts a loopback SMTP server (no TLS, no auth) on a free port, or on `port`. */
export async function startSmtpStandIn(options: { port?: number } = {}): Promise<SmtpStandIn> {
  let server: SMTPServer;
  let port = options.port ?? 0;
  /** The open client connections: a stop ends them, as a mail server going down does. */
  const sockets = new Set<Socket>();
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const envelope = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          };
          standIn.mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), envelope));
          if (standIn.dropReplies > 0) {
            standIn.dropReplies -= 1;
            for (const socket of sockets) socket.destroy();
            return;
          }
          callback();
          if (standIn.stopAfter !== null && standIn.mails.length >= standIn.stopAfter) {
            standIn.stopAfter = null;
            void standIn.stop();
          }
        });
      },
    });
  const listen = () =>
    new Promise<void>((ok, fail) => {
      server = make();
      server.server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => {
        port = (server.server.address() as AddressInfo).port;
        ok();
      });
    });
  let running = false;
  const standIn: SmtpStandIn = {
    url: '',
    port: 0,
    mails: [],
    stopAfter: null,
    dropReplies: 0,
    to: (address) => standIn.mails.filter((m) => m.envelope.to.includes(address)),
    async waitFor(address, count = 1, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const got = standIn.to(address);
        if (got.length >= count) return got;
        if (Date.now() > until) throw new Error(`${got.length} of ${count} mail(s) to ${address} arrived`);
        await new Promise((ok) => setTimeout(ok, 25));
      }
    },
    stop: async () => {
      if (!running) return;
      running = false;
      // Refuse new connections at once; an open one (a client's pooled connection) gets the reply
      // it is owed, then the end of the connection: its next command fails at once.
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      for (const socket of sockets) socket.end();
      await closed;
    },
    start: async () => {
      if (running) return;
      await listen();
      running = true;
    },
  };
  await standIn.start();
  standIn.port = port;
  standIn.url = `smtp://127.0.0.1:${port}`;
  return standIn;
}
