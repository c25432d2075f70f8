#!/usr/bin/env python3
"""The official Python SDK as the client of an rmcp server whose tools take toolgen types.

    python3 tests/schemars_rmcp_client.py EXPECTED_JSON    # our stdin/stdout ARE the connection

EXPECTED_JSON: {tool name: its inputSchema as toolgen writes it (Provider::Mcp)}. The script
lists the tools, holds each inputSchema (less the `$schema` schemars adds) equal to the expected
one, and calls `inspect` with valid arguments. Exit 0: all checks passed; 1: a check failed
(reason on stderr). Needs `mcp` (tested with 2.3.0).
"""

import json
import sys

from mcp import Client

from mcp_client import TIMEOUT, CheckFailed, expect, first_text, own_stdio, run_client

META_SCHEMA = "https://json-schema.org/draft/2020-12/schema"


async def main(expected: dict) -> None:
    async with Client(own_stdio(), read_timeout_seconds=TIMEOUT, cache=None) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        expect("tool names", sorted(expected), sorted(tools))
        for name, schema in expected.items():
            listed = dict(tools[name].input_schema)
            expect(f"{name}: $schema", META_SCHEMA, listed.pop("$schema", None))
            expect(f"{name}: inputSchema", schema, listed)
        arguments = {
            "file": {"name": "a.txt", "parent": {"name": "docs", "files": [{"name": "b.txt"}]}},
            "chain": {"step": 1, "next": {"step": 2}},
            "outline": [{"heading": "A", "children": []}],
        }
        r = await client.call_tool("inspect", arguments)
        expect("inspect isError", False, bool(r.is_error))
        expect("inspect text", "a.txt in docs, 2 steps, 1 heading", first_text(r))


if __name__ == "__main__":
    run_client("schemars_rmcp_client", main, json.loads(sys.argv[1]))
