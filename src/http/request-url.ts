import type { FastifyRequest } from "fastify";

/** A request URL as sent, split at its first `?` into the path and the raw query (without the `?`). */
export function splitUrl(url: string): [string, string] {
  const i = url.indexOf("?");
  return i < 0 ? [url, ""] : [url.slice(0, i), url.slice(i + 1)];
}

/** `http://<address>:<port>` of the socket the request came in on: the server's own, never a header (D19). */
export function listeningBase(request: FastifyRequest): string {
  const address = request.socket.localAddress ?? "127.0.0.1";
  const host = address.includes(":") ? `[${address.replace(/^::ffff:/, "")}]` : address;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : null;
  return `http://${plain ?? host}:${request.socket.localPort}`;
}
