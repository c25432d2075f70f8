// The official TypeScript SDK as the client of an rmcp server that serves toolgen's tools (an
// `McpServer`'s `tool_router()`) beside its own tools, a prompt and a resource; the same checks
// as tests/rmcp_router_client.py.
//
//     node tests/rmcp_router_client.ts SDK_DIR    # our stdin/stdout ARE the connection
//
// SDK_DIR: the folder of the npm package @modelcontextprotocol/sdk (1.32.2, installed by
// .ci/conformance.sh into target/conformance). Node 22.18 or later runs the file as it is (type
// stripping). Exit 0: all checks passed; 1: a check failed (reason on stderr). stdout carries
// protocol messages only.

import { pathToFileURL } from "node:url";

const sdk = process.argv[2];
const load = (path: string) => import(pathToFileURL(`${sdk}/dist/esm/${path}`).href);
const { Client } = await load("client/index.js");
// The server's stdio transport reads our stdin and writes our stdout: for a client as well.
const { StdioServerTransport } = await load("server/stdio.js");
const { ProgressNotificationSchema } = await load("types.js");

class CheckFailed extends Error {}

function expect(what: string, expected: unknown, got: unknown): void {
  const [e, g] = [JSON.stringify(expected), JSON.stringify(got)];
  if (e !== g) throw new CheckFailed(`${what}: expected ${e}, got ${g}`);
}

const firstText = (result: any) => result.content?.[0]?.text;

async function main(): Promise<void> {
  const client = new Client({ name: "rmcp-router-ts", version: "1.0.0" });
  await client.connect(new StdioServerTransport());
  // Every report, in the order it came. (The SDK hands notifications on a microtask after the
  // message, responses at once: a request's own `onprogress` is gone, and its last reports
  // dropped, when they come just before its result, as a fast tool's do.)
  const reports: any[] = [];
  let onReport = (_: any) => {};
  client.setNotificationHandler(ProgressNotificationSchema, (notification: any) => {
    reports.push(notification.params);
    onReport(notification.params);
  });
  const settled = async (count: number) => {
    for (let waited = 0; reports.length < count && waited < 1000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  const tools = (await client.listTools()).tools.map((tool: any) => tool.name).sort();
  expect("tools", ["count", "hang", "search", "search_serde"], tools);

  let r = await client.callTool({ name: "search", arguments: { query: "tea", limit: 999 } });
  expect("search(limit 999) isError", true, r.isError);
  expect(
    "search(limit 999) text",
    "failed to deserialize parameters: invalid arguments at `limit`: must be at most 50, not 999",
    firstText(r),
  );
  r = await client.callTool({ name: "search", arguments: { query: "tea" } });
  expect("search(tea) text", "tea x10", firstText(r));

  // (An `onprogress` makes the SDK send a progress token.)
  r = await client.callTool({ name: "count", arguments: { to: 3 } }, undefined, {
    onprogress: () => {},
  });
  expect("count text", "counted to 3", firstText(r));
  await settled(3);
  const steps = reports.splice(0).map((p) => [p.progress, p.total, p.message]);
  expect("count progress", [1, 2, 3].map((i) => [i, 3, `counted ${i}`]), steps);
  r = await client.callTool({ name: "count", arguments: { to: 99 } });
  expect("count(99) isError", true, r.isError);
  expect("count(99) text", "invalid arguments at `to`: must be at most 10, not 99", firstText(r));

  // Aborted once it started: the SDK sends notifications/cancelled; the server goes on.
  const abort = new AbortController();
  onReport = (p) => {
    if (p.message === "waiting") abort.abort("stopped");
  };
  const hang = client.callTool({ name: "hang", arguments: {} }, undefined, {
    signal: abort.signal,
    onprogress: () => {},
  });
  let outcome = "a result";
  try {
    await hang;
  } catch {
    outcome = "aborted";
  }
  expect("hang", "aborted", outcome);

  const prompts = (await client.listPrompts()).prompts.map((prompt: any) => prompt.name);
  expect("prompts", ["gift"], prompts);
  const gift = await client.getPrompt({ name: "gift" });
  expect("gift", "Suggest a gift.", gift.messages[0].content.text);
  const resources = (await client.listResources()).resources.map((resource: any) => resource.uri);
  expect("resources", ["shop://hours"], resources);
  const hours = await client.readResource({ uri: "shop://hours" });
  expect("hours", "9 to 5", hours.contents[0].text);
  await client.close();
}

let code = 1;
try {
  await main();
  code = 0;
  console.error("rmcp_router_client.ts: all checks passed");
} catch (err) {
  const what = err instanceof CheckFailed ? err.message : `unexpected ${String(err)}`;
  console.error(`rmcp_router_client.ts: FAILED: ${what}`);
}
process.exit(code);
