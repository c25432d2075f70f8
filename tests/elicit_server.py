"""An MCP server written with the official Python SDK (`pip install mcp==2.3.0`) whose tools ask
the person behind the client (elicitation). tests/elicit_toolset.rs starts it as a child process
over stdio and uses it through `McpToolset`, alone and behind a toolgen gateway.

    python3 tests/elicit_server.py [--legacy]

It speaks 2026-07-28 (each question ends the call with an `InputRequiredResult`; the client calls
again with the answers) to a client that does, else 2025-11-25 (an `elicitation/create` request
while the call runs). With --legacy it answers `server/discover` as an unknown method, so that a client that starts
with it falls back to `initialize` at 2025-11-25.
"""

import sys
from typing import Annotated

from mcp import types
from mcp.server import runner
from mcp.server.mcpserver import Context, Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel, Field

server = MCPServer("python-asks")

URL = "https://bank.example.com/sign-in?session=7"


class Contact(BaseModel):
    """Who the room is for."""

    email: str = Field(description="Your email address.")
    nights: int = Field(default=2, ge=1, le=30, description="How many nights.")
    newsletter: bool = False


def who(answer: str) -> Elicit[Contact]:
    """The question `book` asks: `answer` says how the test's callback is to answer it."""
    return Elicit(f"Who is the room for? ({answer})", Contact)


@server.tool()
async def book(answer: str, contact: Annotated[ElicitationResult[Contact], Resolve(who)]) -> str:
    """Book a room, asking who for."""
    if contact.action == "accept":
        c = contact.data
        return f"booked for {c.email}, {c.nights} nights, newsletter {c.newsletter}"
    return f"not booked: {contact.action}"


@server.tool()
async def sign_in(ctx: Context) -> str | types.InputRequiredResult:
    """Sign in on the bank's page (a URL elicitation)."""
    if ctx.protocol_version == "2025-11-25":
        result = await ctx.elicit_url("Sign in to your bank", URL, "sign-in-7")
        await ctx.session.send_elicit_complete("sign-in-7")
        return f"sign-in {result.action}"
    answered = (ctx.input_responses or {}).get("sign_in")
    if answered is None:
        params = types.ElicitRequestURLParams(message="Sign in to your bank", url=URL)
        request = types.ElicitRequest(params=params)
        return types.InputRequiredResult(input_requests={"sign_in": request})
    return f"sign-in {answered.action}"


if __name__ == "__main__":
    if "--legacy" in sys.argv:
        # The SDK serves the era of the client's first request, and `server/discover` opens the
        # 2026-07-28 one: taken as a legacy request here, whose era knows no such method.
        runner._has_modern_envelope = lambda params: False
    server.run("stdio")
