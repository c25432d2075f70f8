"""A small MCP server written with the official Python SDK (`pip install mcp==2.3.0`), which
tests/mcp_toolset.rs starts as a child process over stdio and uses through `McpToolset`: a
result of every content kind, structured output, an error, progress, a call to cancel (it
writes `cancelled` into the file `TOOLSET_MARKER` names when it is), a tool list that changes,
and a call that ends the process."""

import os

import anyio
from mcp import types
from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

server = MCPServer("python-tools")


class Sum(BaseModel):
    sum: int


@server.tool(title="Add two numbers", annotations=types.ToolAnnotations(read_only_hint=True))
def add(a: int, b: int) -> Sum:
    """Add two numbers."""
    return Sum(sum=a + b)


@server.tool()
def media() -> types.CallToolResult:
    """Every kind of content."""
    return types.CallToolResult(
        content=[
            types.TextContent(text="a picture"),
            types.ImageContent(data="iVBORw0KGgo=", mime_type="image/png"),
            types.AudioContent(data="UklGRg==", mime_type="audio/wav"),
            types.EmbeddedResource(
                resource=types.TextResourceContents(uri="file:///notes.txt", text="inside")
            ),
            types.EmbeddedResource(
                resource=types.BlobResourceContents(
                    uri="file:///report.pdf", blob="JVBERi0=", mime_type="application/pdf"
                )
            ),
            types.ResourceLink(uri="file:///more.txt", name="more"),
        ]
    )


@server.tool()
def fail() -> str:
    """Always fails."""
    raise ValueError("it broke")


@server.tool(name="notes.search")
def notes_search(query: str) -> str:
    """Search the notes (a name with a dot)."""
    return f"found {query}"


@server.tool()
async def count(to: int, ctx: Context) -> str:
    """Count, reporting each step."""
    for done in range(1, to + 1):
        await ctx.report_progress(done, to, f"counted {done}")
    return f"counted to {to}"


@server.tool()
async def hang(ctx: Context) -> str:
    """Wait until cancelled."""
    await ctx.report_progress(0, None, "waiting")
    try:
        await anyio.sleep(3600)
    except anyio.get_cancelled_exc_class():
        with open(os.environ["TOOLSET_MARKER"], "w") as marker:
            marker.write("cancelled")
        raise
    return "woke"


def secret() -> str:
    """Tell the secret."""
    return "the secret is 42"


@server.tool()
async def unlock(ctx: Context) -> str:
    """Add the secret tool."""
    server.add_tool(secret)
    # A client of 2026-07-28 hears of it on its `subscriptions/listen` stream; an older one
    # directly.
    await ctx.notify_tools_changed()
    await ctx.session.send_tool_list_changed()
    return "unlocked"


@server.tool()
def exit_now() -> str:
    """End the process in the middle of the call."""
    os._exit(3)


if __name__ == "__main__":
    server.run("stdio")
