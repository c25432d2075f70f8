// The official TypeScript SDK's auth provider against a toolgen MCP server with authorization on;
// the same checks as tests/mcp_oidc_client.py.
//
//     node tests/mcp_oidc_client.ts SDK_DIR URL ISSUER CLIENT_ID CLIENT_SECRET
//
// SDK_DIR: the folder of the npm package @modelcontextprotocol/sdk (1.32.2, installed by
// .ci/node.sh into target/conformance). Its ClientCredentialsProvider (client credentials: the
// SDK runs it headless) reads the server's 401 and its Protected Resource Metadata, the
// authorization server's metadata (oidc-provider, tests/oidc/server.mjs), gets a token for the
// server (the `resource` of RFC 8707) and calls `read_notes`, whose answer says who called.
// Exit 0, saying "all checks passed" on stderr; 1, saying the first failure.

import { pathToFileURL } from "node:url";

const [sdk, url, issuer, clientId, clientSecret] = process.argv.slice(2);
const load = (path: string) => import(pathToFileURL(`${sdk}/dist/esm/${path}`).href);
const { Client } = await load("client/index.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
const { ClientCredentialsProvider } = await load("client/auth-extensions.js");

class CheckFailed extends Error {}

function expect(what: string, expected: unknown, got: unknown): void {
  const [e, g] = [JSON.stringify(expected), JSON.stringify(got)];
  if (e !== g) throw new CheckFailed(`${what}: expected ${e}, got ${g}`);
}

async function main(): Promise<void> {
  const authProvider = new ClientCredentialsProvider({
    clientId,
    clientSecret,
    scope: "notes:read",
    expectedIssuer: issuer,
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider });
  const client = new Client({ name: "oidc-ts", version: "1.0.0" });
  await client.connect(transport);
  const tools = await client.listTools();
  expect("tools", ["read_notes", "write_note", "purge"], tools.tools.map((tool: any) => tool.name));
  const result = await client.callTool({ name: "read_notes", arguments: {} });
  expect("read_notes isError", false, Boolean(result.isError));
  expect(
    "read_notes: who called",
    { subject: clientId, client: clientId, scopes: ["notes:read"], tenant: null },
    result.structuredContent,
  );
  expect("a token was kept", true, authProvider.tokens() !== undefined);
  await client.close();
}

try {
  await main();
  process.stderr.write("mcp_oidc_client.ts: all checks passed\n");
  process.exit(0);
} catch (error) {
  const what = error instanceof CheckFailed ? error.message : `unexpected ${error}`;
  process.stderr.write(`mcp_oidc_client.ts: FAILED: ${what}\n`);
  process.exit(1);
}
