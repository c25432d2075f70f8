#!/usr/bin/env python3
"""The official Python SDK as the client of an rmcp server that serves toolgen's tools (an
`McpServer`'s `tool_router()`) beside its own tools, a prompt and a resource.

    python3 tests/rmcp_router_client.py    # our stdin/stdout ARE the connection

It lists the tools, prompts and resources; calls the server's own `search` (its arguments parsed
by toolgen through `toolgen::Parameters`) and toolgen's `count` (with progress) and `hang`
(abandoned, so the SDK sends notifications/cancelled: the Rust side checks the handler stopped).
Exit 0: all checks passed; 1: a check failed (reason on stderr). Needs `mcp` (tested with 2.3.0).
"""

import anyio
from mcp import Client

from mcp_client import TIMEOUT, CheckFailed, expect, first_text, own_stdio, run_client


async def main() -> None:
    async with Client(own_stdio(), read_timeout_seconds=TIMEOUT, cache=None) as client:
        tools = sorted(tool.name for tool in (await client.list_tools()).tools)
        expect("tools", ["count", "hang", "search", "search_serde"], tools)

        r = await client.call_tool("search", {"query": "tea", "limit": 999})
        expect("search(limit 999) isError", True, bool(r.is_error))
        expect("search(limit 999) text",
               "failed to deserialize parameters: invalid arguments at `limit`: must be at most 50, not 999",
               first_text(r))
        r = await client.call_tool("search", {"query": "tea"})
        expect("search(tea) text", "tea x10", first_text(r))

        steps = []
        all_seen = anyio.Event()

        async def on_progress(progress, total, message):
            steps.append((progress, total, message))
            if len(steps) == 3:
                all_seen.set()

        r = await client.call_tool("count", {"to": 3}, progress_callback=on_progress)
        expect("count text", "counted to 3", first_text(r))
        with anyio.move_on_after(1):  # callbacks run in their own tasks; let stragglers land
            await all_seen.wait()
        expect("count progress", [(i, 3, f"counted {i}") for i in (1, 2, 3)], steps)
        r = await client.call_tool("count", {"to": 99})
        expect("count(99) isError", True, bool(r.is_error))
        expect("count(99) text", "invalid arguments at `to`: must be at most 10, not 99", first_text(r))

        # Abandoning the call makes the SDK send notifications/cancelled; the server goes on.
        with anyio.move_on_after(0.3) as scope:
            r = await client.call_tool("hang", {})
            raise CheckFailed(f"hang: expected it to wait until cancelled, got {r!r}")
        expect("hang abandoned", True, scope.cancelled_caught)

        prompts = [prompt.name for prompt in (await client.list_prompts()).prompts]
        expect("prompts", ["gift"], prompts)
        prompt = await client.get_prompt("gift")
        expect("gift", "Suggest a gift.", prompt.messages[0].content.text)
        resources = [str(resource.uri) for resource in (await client.list_resources()).resources]
        expect("resources", ["shop://hours"], resources)
        read = await client.read_resource("shop://hours")
        expect("hours", "9 to 5", read.contents[0].text)


if __name__ == "__main__":
    run_client("rmcp_router_client", main)
