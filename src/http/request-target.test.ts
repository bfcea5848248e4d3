import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ViewHolder } from "../catalogue/view-holder.js";
import { createApp } from "./create-app.js";

// Issue 26 §3 (T196): requests HTTP clients cannot express, sent on raw sockets. Each is a 400
// problem with CORS, like every error; an absolute-form target is served as its path, so no
// redirect ever names the authority it carried.

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = await createApp({ views: new ViewHolder(null), rateLimitPerMinute: 1000, logLevel: "silent" });
  await app.listen({ host: "127.0.0.1", port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app.close();
});

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends `head` (a request without body, `Connection: close` added) and reads the whole answer. */
function raw(head: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [top = "", body = ""] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = top.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(":");
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
    socket.write(`${head}Connection: close\r\n\r\n`);
  });
}

const expectProblem = (a: Raw, status: number, detail: string) => {
  expect(a.status).toBe(status);
  expect(a.headers["content-type"]).toBe("application/problem+json");
  expect(a.headers["access-control-allow-origin"]).toBe("*");
  expect(a.headers["ratelimit-limit"]).toBe("1000");
  expect(JSON.parse(a.body)).toMatchObject({ type: "about:blank", status, detail: expect.stringContaining(detail) });
};

describe("Host (RFC 9112 §3.2, T196)", () => {
  it("an HTTP/1.1 request without Host is a 400 problem with CORS, not node's bare 400", async () => {
    expectProblem(await raw("GET /api/v1/meta HTTP/1.1\r\n"), 400, "no Host header");
  });

  it("two Host headers are a 400 problem, whichever the path, a preflight included", async () => {
    expectProblem(
      await raw("GET /api/v1/meta HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n"),
      400,
      "more than one Host",
    );
    expectProblem(await raw("GET /docs HTTP/1.1\r\nhost: a.example\r\nHOST: a.example\r\n"), 400, "more than one Host");
    const preflight = await raw(
      "OPTIONS /api/v1/meta HTTP/1.1\r\nHost: a\r\nHost: b\r\nOrigin: https://x.example\r\nAccess-Control-Request-Method: GET\r\n",
    );
    expect(preflight.status).toBe(400);
  });

  it("HTTP/1.0 may omit Host: answered as usual", async () => {
    const a = await raw("GET /docs/static/ HTTP/1.0\r\n");
    expect(a.status).toBe(302);
  });
});

describe("request targets (T196)", () => {
  it("GET * (asterisk-form) is a 400 problem, not a page; OPTIONS * stays the preflight's 204", async () => {
    expectProblem(await raw("GET * HTTP/1.1\r\nHost: a\r\nAccept: text/html\r\n"), 400, "asterisk-form");
    const head = await raw("HEAD * HTTP/1.1\r\nHost: a\r\n");
    expect(head.status).toBe(400);
    expect(head.headers["content-type"]).toBe("application/problem+json");
    expect((await raw("OPTIONS * HTTP/1.1\r\nHost: a\r\n")).status).toBe(204);
  });

  it("a target that is neither a path nor an absolute URL is a 400 problem", async () => {
    expectProblem(await raw("GET http://user@evil.example/docs HTTP/1.1\r\nHost: a\r\n"), 400, "authority");
    // Authority-form outside CONNECT: node's parser refuses it first, answered by the connection's problem.
    const authority = await raw("GET example.org:80 HTTP/1.1\r\nHost: a\r\n");
    expect(authority.status).toBe(400);
    expect(authority.headers["content-type"]).toBe("application/problem+json");
    expect(authority.headers["access-control-allow-origin"]).toBe("*");
  });

  it("an absolute-form target is served as its path: redirects stay on this server's origin", async () => {
    // @fastify/swagger-ui builds this Location from the request URL: before T196 it was http://evil.example/docs/.
    const plugin = await raw("GET http://evil.example/docs/static/index.html HTTP/1.1\r\nHost: a\r\n");
    expect(plugin.status).toBe(302);
    expect(plugin.headers.location).toBe("/docs/");
    const own = await raw("GET HTTP://EVIL.EXAMPLE:8080/docs/static/?x=1 HTTP/1.1\r\nHost: a\r\n");
    expect(own.status).toBe(302);
    expect(own.headers.location).toBe("/docs");
    const unknown = await raw("GET http://evil.example/nothing-here HTTP/1.1\r\nHost: a\r\n");
    expectProblem(unknown, 404, "no endpoint at /nothing-here;");
  });
});

describe("/docs/static/ (T196)", () => {
  it("points at the branded /docs instead of Swagger UI's own index page", async () => {
    for (const path of ["/docs/static/", "/docs/static"]) {
      const a = await raw(`GET ${path} HTTP/1.1\r\nHost: a\r\n`);
      expect(a.status, path).toBe(302);
      expect(a.headers.location, path).toBe("/docs");
      expect(a.body, path).not.toContain("Swagger UI");
    }
    // The page's own files are still served.
    expect((await raw("GET /docs/static/swagger-ui.css HTTP/1.1\r\nHost: a\r\n")).status).toBe(200);
  });
});
