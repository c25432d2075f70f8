#!/usr/bin/env python3
"""A client of a toolgen gateway, written with the official Python SDK (mcp==2.3.0): tests/
elicit_toolset.rs serves it, over our stdin and stdout, an `McpServer` over a runner that holds the
tools of tests/elicit_server.py (a Python SDK server whose tools ask, prefixed `py_`). The far
server's questions must reach us through the gateway, and our answers go back.

    python3 tests/elicit_gateway_client.py --version V --upstream U

V is the version we speak to the gateway (2025-11-25: it asks with `elicitation/create`;
2026-07-28: its calls end with an `InputRequiredResult`, and the SDK's `call_tool` answers and
calls again); U the one the gateway speaks to the far server. Exit 0 ("all checks passed" on
stderr) or 1 (the first failure).
"""

import argparse
import json
import os
import sys

from mcp import Client, types
from mcp.types.version import LATEST_HANDSHAKE_VERSION

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elicit_client import completed, on_message  # noqa: E402  (the completions told)
from mcp_client import TIMEOUT, CheckFailed, at, expect, first_text, own_stdio, run_client  # noqa: E402

CONTACT = {"email": "ada@example.com", "nights": 3, "newsletter": True}
URL = "https://bank.example.com/sign-in?session=7"

asked: list = []  # every elicitation's parameters, in order


async def on_elicit(context, params):
    """Answers as the question says: `(accept)`, `(decline)`, `(cancel)`; a URL is accepted."""
    asked.append(params)
    if isinstance(params, types.ElicitRequestURLParams):
        return types.ElicitResult(action="accept")
    if "(decline)" in params.message:
        return types.ElicitResult(action="decline")
    if "(cancel)" in params.message:
        return types.ElicitResult(action="cancel")
    return types.ElicitResult(action="accept", content=CONTACT)


async def call(client: Client, name: str, arguments: dict):
    result = await client.call_tool(name, arguments)
    text = first_text(result)
    try:
        text = json.loads(text)["result"]
    except (ValueError, KeyError, TypeError):
        pass
    return bool(result.is_error), text


async def main(args) -> None:
    mode = "legacy" if args.version == LATEST_HANDSHAKE_VERSION else "auto"
    async with Client(own_stdio(), mode=mode, read_timeout_seconds=TIMEOUT, elicitation_callback=on_elicit,
                      message_handler=on_message, cache=None,
                      client_info=types.Implementation(name="elicit-gateway-client-test", version="1")) as client:
        expect("negotiated protocol version", args.version, client.protocol_version)

        at("a form accepted, with typed values")
        r = await call(client, "py_book", {"answer": "accept"})
        expect("accepted", (False, "booked for ada@example.com, 3 nights, newsletter True"), r)
        form = asked[-1]
        expect("form mode", "form", form.mode)
        expect("the question", "Who is the room for? (accept)", form.message)
        expect("form fields", ["email", "nights", "newsletter"], list(form.requested_schema["properties"]))
        expect("required fields", ["email"], form.requested_schema.get("required"))

        at("a form declined, and one cancelled")
        expect("declined", (False, "not booked: decline"), await call(client, "py_book", {"answer": "decline"}))
        expect("cancelled", (False, "not booked: cancel"), await call(client, "py_book", {"answer": "cancel"}))

        at("a URL")
        expect("URL accepted", (False, "sign-in accept"), await call(client, "py_sign_in", {}))
        url = asked[-1]
        expect("URL mode", ("url", URL), (url.mode, url.url))
        if args.version == LATEST_HANDSHAKE_VERSION:
            if not url.elicitation_id:
                raise CheckFailed("a URL elicitation of 2025-11-25 has an id")
            if args.upstream == LATEST_HANDSHAKE_VERSION:
                expect("the far server's id", "sign-in-7", url.elicitation_id)
                expect("the completion passed on", ["sign-in-7"], completed)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", required=True)
    parser.add_argument("--upstream", required=True)
    run_client("elicit_gateway_client", main, parser.parse_args())
