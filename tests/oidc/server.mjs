// oidc-provider (a certified OpenID provider, from the npm registry: tests/oidc/package.json)
// as the authorization server of tests/mcp_oauth.rs, on 127.0.0.1 at a port of the system's.
//
//     node tests/oidc/server.mjs MODULES TTL    # MODULES: target/oidc/node_modules
//
// It prints one line, {"issuer": ".."}, once it listens, and serves until its stdin closes (the
// test's end). Client credentials grant, resource indicators (RFC 8707: one resource per token,
// its audience), JWT access tokens (opaque ones for the client `notes-opaque`), each living TTL
// seconds; introspection (RFC 7662) and revocation (RFC 7009).
//
// Clients (secrets sent with HTTP Basic, `client_secret_basic`):
// - `notes-cli` / `notes-cli-secret`: may ask for every scope;
// - `notes-reader` / `notes-reader-secret`: may ask for `notes:read` only;
// - `notes-opaque` / `notes-opaque-secret`: may ask for every scope, and gets opaque tokens;
// - `notes-server` / `notes-server-secret`: the resource server's own, for introspection.

import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

const [modules, ttlText] = process.argv.slice(2);
const { default: Provider } = await import(
  pathToFileURL(`${modules}/oidc-provider/lib/index.js`).href
);
const ttl = Number(ttlText ?? 300);

const http = createServer();
await new Promise((listening) => http.listen(0, "127.0.0.1", listening));
const issuer = `http://127.0.0.1:${http.address().port}`;

const client = (id, scope) => ({
  client_id: id,
  client_secret: `${id}-secret`,
  grant_types: ["client_credentials"],
  redirect_uris: [],
  response_types: [],
  scope,
});

const provider = new Provider(issuer, {
  clients: [
    client("notes-cli", "notes:read notes:write cache:admin"),
    client("notes-reader", "notes:read"),
    client("notes-opaque", "notes:read notes:write cache:admin"),
    client("notes-server", "notes:read"),
  ],
  scopes: ["notes:read", "notes:write", "cache:admin"],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // A token request without `resource` gets no access token for any resource server.
      defaultResource: () => undefined,
      getResourceServerInfo: (_ctx, resource, client) => ({
        scope: "notes:read notes:write cache:admin",
        audience: resource,
        accessTokenTTL: ttl,
        accessTokenFormat: client.clientId === "notes-opaque" ? "opaque" : "jwt",
        jwt: { sign: { alg: "RS256" } },
      }),
    },
  },
});
// (The test runs over plain HTTP on the loopback interface.)
provider.proxy = false;
http.on("request", provider.callback());

process.stdout.write(`${JSON.stringify({ issuer })}\n`);
// The test reads that one line, then stops reading: what oidc-provider logs (a revocation's
// notice, ..) goes to stderr, which a closed stdout cannot fail.
console.log = console.info = console.error;
process.stdout.on("error", () => {});
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
process.stdin.on("close", () => process.exit(0));
