#!/usr/bin/env python3
"""An MCP client written with the official Python SDK (mcp==2.3.0) that answers the elicitations
of the "hotel" server of tests/elicit.rs, which serves it over our stdin and stdout, or over
streamable HTTP at URL (with a bearer TOKEN on every request, where given).

    python3 tests/elicit_client.py --version V [--no-elicitation] [--http URL [--token TOKEN]]

V is 2025-11-25 (the server asks with `elicitation/create` requests, and a page the call cannot go
on without is the `-32042` error) or 2026-07-28 (it answers `tools/call` with an
`InputRequiredResult`; the SDK's `call_tool` answers and calls again). With --no-elicitation the
client declares no `elicitation` capability, and each call must fail at once, saying so. Exit 0
("all checks passed" on stderr) or 1 (the first failure).
"""

import argparse
import os
from contextlib import AsyncExitStack
from urllib.parse import parse_qs, urlparse

from mcp import Client, MCPError, UrlElicitationRequiredError, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import URL_ELICITATION_REQUIRED
from mcp.types.version import LATEST_HANDSHAKE_VERSION
from mcp_client import TIMEOUT, CheckFailed, expect, first_text, own_stdio, run_client

CONTACT = {"email": "ada@example.com", "room": "double", "extras": ["crib"]}
CONTACT_SEEN = (
    "accepted Contact { email: \"ada@example.com\", nights: 2, room: Double, extras: [Crib], "
    "note: None, newsletter: false }"
)

asked: list = []  # every elicitation's parameters, in order
completed: list = []  # the ids of `notifications/elicitation/complete`
the_client: list = []  # the client, for the bank's page to be done from a callback


async def on_elicit(context, params):
    """Answers as the question says: `(accept)`, `(decline)`, `(cancel)`, `(wrong)`; a URL is
    accepted (the user agreed to open it)."""
    asked.append(params)
    if isinstance(params, types.ElicitRequestURLParams):
        if "(decline)" in params.message:
            return types.ElicitResult(action="decline")
        if params.url.startswith("https://bank.example.com/link"):
            # The person links the account on the bank's page (`bank_page` stands for it).
            account = parse_qs(urlparse(params.url).query)["account"][0]
            await the_client[0].call_tool("bank_page", {"account": account})
        return types.ElicitResult(action="accept")
    schema = params.requested_schema
    if "(decline)" in params.message:
        return types.ElicitResult(action="decline")
    if "(cancel)" in params.message:
        return types.ElicitResult(action="cancel")
    if "(wrong)" in params.message:
        return types.ElicitResult(action="accept", content={"email": "ada@example.com", "room": "suite"})
    if "ok" in schema["properties"]:
        return types.ElicitResult(action="accept", content={"ok": True})
    return types.ElicitResult(action="accept", content=CONTACT)


async def on_message(message):
    if isinstance(message, types.ElicitCompleteNotification):
        completed.append(message.params.elicitation_id)


async def call(client: Client, name: str, arguments: dict):
    result = await client.call_tool(name, arguments)
    return bool(result.is_error), first_text(result)


async def checks(client: Client, version: str) -> None:
    r = await call(client, "book", {"answer": "accept"})
    expect("accepted", (False, CONTACT_SEEN), r)
    form = asked[0]
    expect("form mode", "form", form.mode)
    schema = form.requested_schema
    expect("form fields", ["email", "nights", "room", "extras", "note", "newsletter"], list(schema["properties"]))
    expect("required fields", ["email", "room"], schema.get("required"))
    expect("a titled enum", [{"const": "single", "title": "single"}, {"const": "double", "title": "Two beds."}],
           schema["properties"]["room"]["oneOf"])
    expect("declined", (False, "declined"), await call(client, "book", {"answer": "decline"}))
    expect("cancelled", (False, "cancelled"), await call(client, "book", {"answer": "cancel"}))
    wrong = await call(client, "book", {"answer": "wrong"})
    expect("a wrong answer is the tool's error", True, wrong[0])
    if "`room`" not in wrong[1] or "suite" not in wrong[1]:
        raise CheckFailed(f"the error names the field and the value: {wrong[1]!r}")
    r = await call(client, "book", {"answer": "accept", "twice": True})
    expect("two questions in one call", (False, CONTACT_SEEN + "; accepted Confirm { ok: true }"), r)
    r = await call(client, "sign_in", {})
    expect("a URL accepted", (False, "sign-in accepted ()"), r)
    url = asked[-1]
    expect("URL mode", ("url", "https://bank.example.com/sign-in?session=7"), (url.mode, url.url))
    if version == LATEST_HANDSHAKE_VERSION:
        expect("the URL elicitation's id", "sign-in-7", url.elicitation_id)
        expect("the completion told", ["sign-in-7"], completed)
    expect("questions asked", 7, len(asked))
    await required_pages(client, version)


async def required_pages(client: Client, version: str) -> None:
    """A call that cannot go on until the person links an account on the bank's page: at
    2025-11-25 the -32042 error (the client shows the page, then calls again), at 2026-07-28 a
    round that asks for the page (the SDK's callback shows it, and the SDK calls again)."""
    account = f"a-{version}-{os.getpid()}"  # (each run its own: the server's process keeps the links)
    url = f"https://bank.example.com/link?account={account}"
    if version == LATEST_HANDSHAKE_VERSION:
        try:
            got = await client.call_tool("link_bank", {"account": account})
            raise CheckFailed(f"a required page is the -32042 error, not {got!r}")
        except MCPError as error:
            expect("the error's code", URL_ELICITATION_REQUIRED, error.code)
            # (The SDK's client raises `MCPError`; `UrlElicitationRequiredError` reads its data.)
            required = UrlElicitationRequiredError.from_error(error.error)
            expect("the message", "URL elicitation required", required.message)
            page = required.elicitations[0]
            expect("the page", ("url", url, f"link-{account}", f"Link your bank account ({account})"),
                   (page.mode, page.url, page.elicitation_id, page.message))
            expect("one page", 1, len(required.elicitations))
        await call(client, "bank_page", {"account": account})
        expect("linked, called again", (False, f"linked {account}"),
               await call(client, "link_bank", {"account": account}))
        return
    expect("linked in a round", (False, f"linked {account}"), await call(client, "link_bank", {"account": account}))
    page = asked[-1]
    expect("the page asked for", ("url", url), (page.mode, page.url))
    declined = await call(client, "link_bank", {"account": "decline"})
    expect("a page declined: the tool's error", (True, "this call cannot go on until the user completes a step "
                                                 "in their browser: Link your bank account (decline)"), declined)


async def refused(client: Client) -> None:
    for name, arguments in [("book", {"answer": "accept"}), ("sign_in", {})]:
        error, text = await call(client, name, arguments)
        expect(f"{name} without the capability fails", True, error)
        if "did not declare the `elicitation` capability" not in text:
            raise CheckFailed(f"{name}: the error says why: {text!r}")
    # A page required: the tool's error, which the model reads (without the URL).
    expect("a page required without the capability", (True, "this call cannot go on until the user completes a "
                                                       "step in their browser: Link your bank account (none)"),
           await call(client, "link_bank", {"account": "none"}))


async def main(args) -> None:
    mode = "legacy" if args.version == LATEST_HANDSHAKE_VERSION else "auto"
    callback = None if args.no_elicitation else on_elicit
    async with AsyncExitStack() as stack:
        if args.http:
            headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
            http = await stack.enter_async_context(create_mcp_http_client(headers=headers))
            transport = streamable_http_client(args.http, http_client=http)
        else:
            transport = own_stdio()
        await session(transport, mode, callback, args)


async def session(transport, mode, callback, args) -> None:
    async with Client(transport, mode=mode, read_timeout_seconds=TIMEOUT, elicitation_callback=callback,
                      message_handler=on_message,
                      client_info=types.Implementation(name="elicit-client-test", version="1")) as client:
        expect("negotiated protocol version", args.version, client.protocol_version)
        the_client.append(client)
        if args.no_elicitation:
            await refused(client)
        else:
            await checks(client, args.version)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", required=True)
    parser.add_argument("--no-elicitation", action="store_true")
    parser.add_argument("--http", metavar="URL")
    parser.add_argument("--token")
    run_client("elicit_client", main, parser.parse_args())
