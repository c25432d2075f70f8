#!/usr/bin/env python3
"""A client of a gateway, written with the official Python SDK: tests/mcp_toolset.rs serves it an
`McpServer` over a runner that holds the tools of `tests/mcp_toolset_server.py` (a Python SDK
server, prefixed `py_`), over our stdin and stdout. The upstream's tools change while the gateway
serves (`py_unlock` adds `secret`): the gateway must tell us (`notifications/tools/list_changed`,
on a `subscriptions/listen` stream at 2026-07-28) and list the new tool, which then runs.

    python3 tests/mcp_gateway_client.py [--version V]   # 2025-11-25 or 2026-07-28 (default)

Exit 0 saying "all checks passed" on stderr; 1 saying the first failure.
"""

import argparse
import os
import sys

import anyio
from mcp import Client, types
from mcp.client.subscriptions import ToolsListChanged
from mcp.types.version import LATEST_HANDSHAKE_VERSION, LATEST_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSIONS

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_client import at, expect, first_text, own_stdio, run_client  # noqa: E402

TIMEOUT = 10.0


async def names(client: Client) -> list[str]:
    listed, cursor = [], None
    for _ in range(20):
        page = await client.list_tools(cursor=cursor)
        listed += [tool.name for tool in page.tools]
        if (cursor := page.next_cursor) is None:
            break
    return listed


async def main(version: str) -> None:
    list_changed = anyio.Event()

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            list_changed.set()

    mode = "legacy" if version == LATEST_HANDSHAKE_VERSION else "auto"
    async with Client(own_stdio(), mode=mode, read_timeout_seconds=TIMEOUT, message_handler=on_message,
                      client_info=types.Implementation(name="gateway-client-test", version="1"),
                      cache=None) as client:
        at("checking the handshake")
        expect("negotiated protocol version", version, client.protocol_version)
        tools = client.server_capabilities.tools
        expect("capabilities.tools.listChanged", True, tools.list_changed if tools else None)

        at("listing the upstream's tools")
        before = await names(client)
        expect("py_unlock listed, py_secret not", (True, False), ("py_unlock" in before, "py_secret" in before))

        async def unlock():
            r = await client.call_tool("py_unlock", {})
            expect("py_unlock result", (False, '{"result":"unlocked"}'), (bool(r.is_error), first_text(r)))

        at("unlocking the upstream's secret tool")
        if version in MODERN_PROTOCOL_VERSIONS:
            async with client.listen(tools_list_changed=True) as sub:
                expect("subscriptions/listen acknowledged toolsListChanged", True, sub.honored.tools_list_changed)
                await unlock()
                event = None
                with anyio.move_on_after(10):
                    event = await anext(sub, None)
                expect("subscriptions/listen event within 10 s of unlock", ToolsListChanged(), event)
        else:
            await unlock()
            with anyio.move_on_after(10):
                await list_changed.wait()
            expect("notifications/tools/list_changed within 10 s of unlock", True, list_changed.is_set())

        at("listing again and calling the new tool")
        after = await names(client)
        expect("the listing after the change", before + ["py_secret"], after)
        r = await client.call_tool("py_secret", {})
        expect("py_secret result", (False, '{"result":"the secret is 42"}'), (bool(r.is_error), first_text(r)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default=LATEST_PROTOCOL_VERSION)
    args = parser.parse_args()
    run_client("mcp_gateway_client", main, args.version)
