import { createServer, type Socket } from "node:net";

/**
 * A minimal SMTP server for tests (no TLS, no AUTH): enough for Strapi's nodemailer provider
 * (SMTP_HOST/SMTP_PORT). It keeps every message it is given. A real mail server takes its time
 * (network round trips, checks); `acceptDelayMs` stands for that: the reply to the end of
 * each message comes that much later.
 */

export interface SmtpMessage {
  from: string;
  to: string[];
  data: string;
}

export interface FakeSmtp {
  port: number;
  messages: SmtpMessage[];
  stop(): Promise<void>;
}

export async function startFakeSmtp(port: number, opts: { acceptDelayMs?: number } = {}): Promise<FakeSmtp> {
  const messages: SmtpMessage[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let buffer = "";
    let inData = false;
    let current: SmtpMessage = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 fake-smtp ready");
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          const message = current;
          current = { from: "", to: [], data: "" };
          setTimeout(() => {
            messages.push(message);
            reply("250 2.0.0 queued");
          }, opts.acceptDelayMs ?? 0);
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 fake-smtp");
        else if (verb === "MAIL") {
          current.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
          reply("250 2.1.0 ok");
        } else if (verb === "RCPT") {
          current.to.push((/<([^>]*)>/.exec(line)?.[1] ?? "").toLowerCase());
          reply("250 2.1.5 ok");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 end with <CRLF>.<CRLF>");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else if (verb === "RSET" || verb === "NOOP") reply("250 ok");
        else reply("502 5.5.2 not implemented");
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port,
    messages,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A header of a message as the SMTP server received it (unfolded), or undefined. */
export function mailHeader(message: SmtpMessage, name: string): string | undefined {
  const head = message.data.split(/\r\n\r\n/)[0] ?? "";
  const unfolded = head.replace(/\r\n[ \t]+/g, " ");
  const line = unfolded.split("\r\n").find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The message's text with quoted-printable soft breaks and escapes undone (enough to find links). */
export function mailText(message: SmtpMessage): string {
  return message.data
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
