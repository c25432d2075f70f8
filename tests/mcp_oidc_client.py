"""The official Python SDK's OAuth client against a toolgen MCP server with authorization on.

    python3 tests/mcp_oidc_client.py URL ISSUER CLIENT_ID CLIENT_SECRET

mcp.client.auth's ClientCredentialsOAuthProvider (client credentials: the SDK runs it headless)
reads the server's 401 and its Protected Resource Metadata, the authorization server's metadata
(oidc-provider, tests/oidc/server.mjs), asks its token endpoint for a token for the server (the
`resource` of RFC 8707) and calls `read_notes`, whose answer says who called. Exit 0, saying "all
checks passed" on stderr, or 1, saying the first failure.
"""

import sys

import anyio
from mcp import Client
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken


class CheckFailed(Exception):
    pass


def expect(what, expected, got):
    if expected != got:
        raise CheckFailed(f"{what}: expected {expected!r}, got {got!r}")


class Memory:
    """Tokens and client information kept in memory (the SDK's TokenStorage)."""

    def __init__(self):
        self.tokens, self.client_info = None, None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


async def main(url, issuer, client_id, secret):
    storage = Memory()
    auth = ClientCredentialsOAuthProvider(url, storage, client_id, secret, scope="notes:read", issuer=issuer)
    http = create_mcp_http_client(auth=auth)
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        tools = await client.list_tools()
        expect("tools", ["read_notes", "write_note", "purge"], [tool.name for tool in tools.tools])
        result = await client.call_tool("read_notes", {})
        expect("read_notes isError", False, bool(result.is_error))
        expect("read_notes: who called", {"subject": client_id, "client": client_id, "scopes": ["notes:read"],
                                          "tenant": None}, result.structured_content)
    expect("a token was kept", True, storage.tokens is not None)


if __name__ == "__main__":
    code = 1
    try:
        anyio.run(main, *sys.argv[1:5])
        code = 0
        print("mcp_oidc_client: all checks passed", file=sys.stderr)
    except BaseException as err:
        while isinstance(err, BaseExceptionGroup) and err.exceptions:
            err = err.exceptions[0]
        what = str(err) if isinstance(err, CheckFailed) else f"unexpected {type(err).__name__}: {err!r}"
        print(f"mcp_oidc_client: FAILED: {what}", file=sys.stderr)
    sys.exit(code)
