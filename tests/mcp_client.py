#!/usr/bin/env python3
"""Independent MCP client test for the "calculator" server, written with the official Python SDK.

    python3 tests/mcp_client.py stdio [--version V]      # our stdin/stdout ARE the connection
    python3 tests/mcp_client.py http URL [--version V]   # streamable HTTP at URL

Needs `mcp` (tested with 2.3.0). V is 2025-11-25 (initialize handshake) or 2026-07-28
(`server/discover`, then a `_meta` envelope on every request); default: the SDK's latest.
Exit 0: all checks passed; 1: a check failed (reason on stderr); 3: "skip: ..." on stderr,
the SDK cannot speak V. stdout carries protocol messages only; diagnostics go to stderr.
"""

import argparse
import logging
import os
import sys
from contextlib import asynccontextmanager

import anyio
import anyio.to_thread
from mcp import Client, MCPError, types
from mcp.client.subscriptions import ToolsListChanged
from mcp.server.stdio import stdio_server
from mcp.shared.subscriptions import SUBSCRIPTION_ID_META_KEY
from mcp.types.version import LATEST_HANDSHAKE_VERSION, LATEST_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSIONS

TIMEOUT = 10.0  # per-request read timeout, so a silent server fails the test instead of hanging it
BASE_TOOLS = ["add", "hang", "count", "unlock", "judge"]
UNKNOWN = "unknown tool `{}`; the tools are `add`, `hang`, `count`, `unlock`, `judge`"


step = "connecting"  # what the script is doing, named in the report of an unexpected error


class CheckFailed(Exception):
    pass


def at(what: str):
    global step
    step = what


def expect(what, expected, got):
    if expected != got:
        raise CheckFailed(f"{what}: expected {expected!r}, got {got!r}")


def dump(model):
    """A pydantic model as its wire JSON (camelCase keys, unset fields omitted)."""
    return model.model_dump(by_alias=True, mode="json", exclude_none=True) if model is not None else None


def first_text(result: types.CallToolResult):
    block = result.content[0] if result.content else None
    return block.text if isinstance(block, types.TextContent) else block


async def check_pages(client: Client, names: list[str]) -> dict[str, types.Tool]:
    """tools/list page by page, following nextCursor: the listing is `names` in order, 2 tools per page."""
    pages, cursor = [], None
    while len(pages) <= len(names):  # bounded, in case nextCursor never ends
        page = await client.list_tools(cursor=cursor)
        pages.append(page.tools)
        if (cursor := page.next_cursor) is None:
            break
    expect("tools/list pages (2 tools per page)", [names[i : i + 2] for i in range(0, len(names), 2)],
           [[t.name for t in p] for p in pages])
    return {t.name: t for p in pages for t in p}


async def expect_protocol_error(client: Client, name: str, message: str):
    try:
        result = await client.call_tool(name, {})
    except MCPError as e:
        expect(f"tools/call {name}: error code", -32602, e.code)
        expect(f"tools/call {name}: error message", message, e.message)
    else:
        raise CheckFailed(f"tools/call {name}: expected a JSON-RPC error -32602, got a result {dump(result)}")


async def run_checks(client: Client, version: str, changes: list, list_changed: anyio.Event):
    at("checking the initialize (2025-11-25) or server/discover (2026-07-28) answer")
    # (in "auto" mode the SDK falls back to initialize when server/discover fails or is refused)
    expect("negotiated protocol version", version, client.protocol_version)
    info = client.server_info
    expect("serverInfo name/version", ("calculator", "1.2.3"), (info.name, info.version) if info else None)
    tools_cap = client.server_capabilities.tools
    expect("capabilities.tools.listChanged", True, tools_cap.list_changed if tools_cap else None)

    at("listing tools")  # pagination, and the `add` tool's metadata
    tools = await check_pages(client, BASE_TOOLS)
    add = tools["add"]
    expect("add.title", "Add two numbers", add.title)
    expect("add.annotations", {"readOnlyHint": True, "openWorldHint": False}, dump(add.annotations))
    expect("add.icons", [{"src": "https://example.com/add.png", "mimeType": "image/png", "sizes": ["48x48"]}],
           [dump(i) for i in add.icons or []])
    expect("add.inputSchema.required", ["a", "b"], sorted(add.input_schema.get("required", [])))
    out = add.output_schema or {}
    expect("add.outputSchema type/required", ("object", ["sum"]), (out.get("type"), out.get("required")))

    # `judge` answers "yes" or "no": not an object, so its schema and its structured content go
    # only to clients of 2026-07-28 (2025-11-25 requires an object).
    modern = version in MODERN_PROTOCOL_VERSIONS
    expect("judge.outputSchema", {"type": "string", "enum": ["yes", "no"], "description": "Yes or no."}
           if modern else None, tools["judge"].output_schema)
    r = await client.call_tool("judge", {"n": 4})
    expect("judge(4) text and structuredContent", ("yes", "yes" if modern else None),
           (first_text(r), r.structured_content))

    at("calling add")  # success, invalid arguments (a tool error, not a protocol error), overflow
    r = await client.call_tool("add", {"a": 2, "b": 3})
    expect("add(2,3) isError", False, bool(r.is_error))
    expect("add(2,3) structuredContent", {"sum": 5}, r.structured_content)
    expect("add(2,3) content[0].text", '{"sum":5}', first_text(r))
    r = await client.call_tool("add", {"a": "two", "b": 3})
    expect('add("two",3) isError', True, r.is_error)
    expect('add("two",3) content[0].text', 'invalid arguments at `a`: invalid type: string "two", expected i64',
           first_text(r))
    r = await client.call_tool("add", {"a": 9223372036854775807, "b": 1})
    expect("add(i64::MAX,1) isError", True, r.is_error)
    expect("add(i64::MAX,1) structuredContent", {"error": "overflow"}, r.structured_content)

    at("cancelling hang")  # abandoning the call makes the SDK send notifications/cancelled (stdio, legacy HTTP)
    # or abort the request's POST (HTTP at 2026-07-28); the server must keep answering.
    with anyio.move_on_after(0.2) as scope:
        r = await client.call_tool("hang", {})
        raise CheckFailed(f"hang: expected it to wait until cancelled, got a result {dump(r)}")
    expect("hang cancelled by the client after 200 ms", True, scope.cancelled_caught)
    await check_pages(client, BASE_TOOLS)

    at("calling count")  # progress 1..3 (total 3, "counted i"), in order, for this call's progressToken
    seen, all_seen = [], anyio.Event()

    async def on_progress(progress, total, message):
        seen.append((progress, total, message))
        if len(seen) >= 3:
            all_seen.set()

    r = await client.call_tool("count", {"to": 3}, progress_callback=on_progress)
    with anyio.move_on_after(1):  # callbacks run in their own tasks; let stragglers land
        await all_seen.wait()
    expect("count(3) progress (progress, total, message)",
           [(float(i), 3.0, f"counted {i}") for i in (1, 2, 3)], seen)
    expect("count(3) result", (False, "counted to 3"), (bool(r.is_error), first_text(r)))

    at("calling unknown tools")  # protocol errors (JSON-RPC -32602), `secret` included while locked
    await expect_protocol_error(client, "sub", UNKNOWN.format("sub"))
    await expect_protocol_error(client, "secret", UNKNOWN.format("secret"))

    at("unlocking")  # the server reports tools/list_changed, then `secret` is listed and works

    async def unlock():
        r = await client.call_tool("unlock", {})
        expect("unlock result", (False, "unlocked"), (bool(r.is_error), first_text(r)))

    if version in MODERN_PROTOCOL_VERSIONS:
        # 2026-07-28: change notifications ride only a subscriptions/listen stream the client opened.
        async with client.listen(tools_list_changed=True) as sub:
            expect("subscriptions/listen acknowledged toolsListChanged", True, sub.honored.tools_list_changed)
            await unlock()
            event = None
            with anyio.move_on_after(5):
                event = await anext(sub, None)
            expect("subscriptions/listen event within 5 s of unlock", ToolsListChanged(), event)
            # Each list_changed must be a frame of this stream, stamped with its subscription id
            # (the SDK also hands stream frames to message_handler, in a task of their own).
            with anyio.move_on_after(1):
                await list_changed.wait()
            expect("subscriptionId of each notifications/tools/list_changed",
                   [sub.subscription_id] * max(1, len(changes)),
                   [((n.params.meta if n.params else None) or {}).get(SUBSCRIPTION_ID_META_KEY) for n in changes])
    else:
        await unlock()
        with anyio.move_on_after(5):
            await list_changed.wait()
        expect("notifications/tools/list_changed within 5 s of unlock", True, list_changed.is_set())

    at("listing and calling secret")
    await check_pages(client, BASE_TOOLS + ["secret"])
    r = await client.call_tool("secret", {})
    expect("secret result", (False, "the secret is 42"), (bool(r.is_error), first_text(r)))


class StdinLines:
    """Our stdin as lines; unlike anyio.wrap_file (stdio_server's default), a pending read is abandoned on cancel."""

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        line = await anyio.to_thread.run_sync(sys.stdin.buffer.readline, abandon_on_cancel=True)
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


@asynccontextmanager
async def own_stdio():
    """Our own stdin/stdout as a client transport: stdio_server() makes them the SDK's (read, write)
    stream pair, which serves a client as well as a server, and points fd 1 at stderr meanwhile, so
    stray prints cannot corrupt the protocol. Left alone it runs until stdin EOF (a server's
    lifetime), which our server sends only after we exit, so cancel it when the client is done."""
    with anyio.CancelScope() as scope:
        async with stdio_server(stdin=StdinLines()) as streams:
            try:
                yield streams
            finally:
                scope.cancel()


def run_client(name: str, main, *args) -> None:
    """Runs `main(*args)` (the checks of the client script `name`) and exits: 0, saying "all checks
    passed" on stderr, or 1, saying the first failure, whatever layer it came from."""
    code = 1
    try:
        anyio.run(main, *args)
        code = 0
        print(f"{name}: all checks passed", file=sys.stderr)
    except BaseException as err:
        while isinstance(err, BaseExceptionGroup) and err.exceptions:  # unwrap anyio task groups
            err = err.exceptions[0]
        what = str(err) if isinstance(err, CheckFailed) else f"unexpected {type(err).__name__}: {err!r}"
        print(f"{name}: FAILED: {what}", file=sys.stderr)
    sys.stderr.flush()
    # Exit hard: the abandoned stdin reader thread may still be blocked in readline().
    os._exit(code)


async def main(args) -> None:
    changes, list_changed = [], anyio.Event()

    async def on_message(message):  # server notifications (and transport exceptions)
        if isinstance(message, types.ToolListChangedNotification):
            changes.append(message)
            list_changed.set()
        elif isinstance(message, Exception):
            logging.warning("transport error: %r", message)

    transport = own_stdio() if args.transport == "stdio" else args.url
    mode = "legacy" if args.version == LATEST_HANDSHAKE_VERSION else "auto"  # auto = discover
    async with Client(transport, mode=mode, read_timeout_seconds=TIMEOUT, message_handler=on_message,
                      client_info=types.Implementation(name="mcp-client-test", version="1"),
                      cache=None) as client:  # no response cache: every listing must hit the server
        await run_checks(client, args.version, changes, list_changed)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transport", choices=["stdio", "http"])
    parser.add_argument("url", nargs="?")
    parser.add_argument("--version", default=LATEST_PROTOCOL_VERSION)
    args = parser.parse_args()
    if args.transport == "http" and not args.url:
        parser.error("http needs a URL")
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="mcp_client: %(name)s: %(message)s")
    speakable = [LATEST_HANDSHAKE_VERSION, *MODERN_PROTOCOL_VERSIONS]
    if args.version not in speakable:
        print(f"skip: mcp SDK cannot request protocol version {args.version}; it speaks {speakable}",
              file=sys.stderr, flush=True)
        os._exit(3)
    code = 1
    try:
        anyio.run(main, args)
        code = 0
        print(f"mcp_client: all checks passed ({args.transport}, {args.version})", file=sys.stderr)
    except BaseException as err:  # report the first failure, whatever layer it came from
        while isinstance(err, BaseExceptionGroup) and err.exceptions:  # unwrap anyio task groups
            err = err.exceptions[0]
        if isinstance(err, CheckFailed):
            what = str(err)
        else:
            detail = f"JSON-RPC error {err.code}: {err.message}" if isinstance(err, MCPError) else str(err)
            what = f"{step}: unexpected {type(err).__name__}: {detail or repr(err)}"
        print(f"mcp_client: FAILED ({args.transport}, {args.version}): {what}", file=sys.stderr)
    sys.stderr.flush()
    # Exit hard: the abandoned stdin reader thread may still be blocked in readline().
    os._exit(code)
