import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";

/** `TRUST_PROXY` (D24): a hop count, or the addresses and CIDR ranges of the trusted proxies. */
export type TrustProxy = number | readonly string[] | undefined;

/**
 * The D24 client IP of a request, on both paths: the socket address, or with `TRUST_PROXY` the
 * address before the trusted proxies in `X-Forwarded-For` (proxy-addr, as Fastify's `request.ip`).
 * A hop count trusts that many proxies nearest to us; a list trusts those addresses and CIDR ranges.
 */
export function clientIpOf(trustProxy: TrustProxy): (req: IncomingMessage) => string {
  if (trustProxy === undefined) return (req) => req.socket.remoteAddress ?? "";
  const trust =
    typeof trustProxy === "number"
      ? (_address: string, hop: number) => hop < trustProxy
      : proxyaddr.compile([...trustProxy]);
  return (req) => proxyaddr(req, trust);
}

/** Fastify's `trustProxy` option for the same rule, so `request.ip` agrees with {@link clientIpOf}. */
export function fastifyTrustProxy(value: TrustProxy): boolean | string | ((address: string, hop: number) => boolean) {
  if (value === undefined) return false;
  // A hop count trusts that many proxies nearest to us (proxy-addr's hop index).
  if (typeof value === "number") return (_address, hop) => hop < value;
  return value.join(",");
}
