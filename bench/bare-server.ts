/**
 * The baseline of `npm run bench` (issue 6 §3): a bare node:http server returning the bytes and
 * headers Tariff returned for each benchmarked URL, fetched from a running Tariff once at start.
 * It answers 304 when If-None-Match equals the ETag. Usage: bare-server.ts <port> <tariff base> <path>…
 */
import { createServer, get } from "node:http";

interface Answer {
  status: number;
  headers: string[];
  body: Buffer;
  etag: string;
  notModified: string[];
}

/** Headers node writes itself (Date, Connection, Keep-Alive) are left to node, as in Tariff. */
const NODE_OWN = new Set(["date", "connection", "keep-alive"]);
const NOT_ON_304 = new Set(["content-type", "content-length", "content-encoding"]);

function fetchAnswer(base: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get(`${base}${path}`, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const headers: string[] = [];
        const notModified: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] ?? "";
          const value = res.rawHeaders[i + 1] ?? "";
          if (NODE_OWN.has(name.toLowerCase())) continue;
          headers.push(name, value);
          if (!NOT_ON_304.has(name.toLowerCase())) notModified.push(name, value);
        }
        resolve({
          status: res.statusCode ?? 200,
          headers,
          body: Buffer.concat(chunks),
          etag: String(res.headers.etag ?? ""),
          notModified,
        });
      });
      res.on("error", reject);
    }).on("error", reject);
  });
}

const [portArg, base, ...paths] = process.argv.slice(2);
if (!portArg || !base) throw new Error("usage: bare-server.ts <port> <tariff base> <path>…");
const answers = new Map<string, Answer>();
for (const path of paths) answers.set(path, await fetchAnswer(base, path));

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? "");
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  if (req.headers["if-none-match"] === answer.etag) {
    res.writeHead(304, answer.notModified);
    res.end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(portArg), "127.0.0.1", () => process.stdout.write("ready\n"));
process.once("SIGTERM", () => process.exit(0));
