"""The official Python SDK client (`mcp` on PyPI, pinned in scripts/clients/requirements.txt), in a venv
under .tools/clients/python. The same steps and checks as scripts/clients/lib/scenario.mjs, one JSON line
per step on stdout.

`Client(mode="auto")` opens with the 2026-07-28 `server/discover` probe and falls back to `initialize`
when the server answers it with an error; the driver records that probe and its answer. `call_tool`
validates structuredContent against the tool's outputSchema. The SDK's `initialize` always asks for its
newest handshake version: a pin replaces the constant it reads, everything else is the SDK's own.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import warnings
from datetime import datetime, timedelta, timezone
from typing import Any

import anyio
import mcp.client.session as session_module
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

UPDATE_TIMEOUT_S = 10
# The scenario drives 2025-era servers on purpose: resources/subscribe is theirs.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)


def report(step: str, ok: bool | None, detail: str = "") -> None:
    sys.stdout.write(json.dumps({"step": step, "ok": ok, "detail": str(detail)[:600]}, ensure_ascii=False) + "\n")
    sys.stdout.flush()


class NotApplicable(Exception):
    pass


def plain(model: Any) -> Any:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def resolve_args(value: Any, saved: dict[str, Any]) -> Any:
    if isinstance(value, str):
        match = re.fullmatch(r"\$\{(.+)\}", value)
        if not match:
            return value
        now = re.fullmatch(r"now\+(\d+)", match[1])
        if now:
            moment = datetime.now(timezone.utc) + timedelta(minutes=int(now[1]))
            return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        if match[1] not in saved:
            raise RuntimeError(f"nothing saved as {match[1]}")
        return saved[match[1]]
    if isinstance(value, list):
        return [resolve_args(v, saved) for v in value]
    if isinstance(value, dict):
        return {k: resolve_args(v, saved) for k, v in value.items()}
    return value


def matches_template(uri: str, template: str) -> bool:
    pattern = "[^/]+".join(re.escape(part) for part in re.split(r"\{[^}]+\}", template))
    return re.fullmatch(pattern, uri) is not None


def text_of(result: dict[str, Any]) -> str:
    return " ".join(c["text"] for c in result.get("content", []) if c.get("type") == "text")


def check_tool_result(tool: dict[str, Any] | None, result: dict[str, Any]) -> None:
    if result.get("isError"):
        raise RuntimeError(f"isError result: {text_of(result)[:300]}")
    if not text_of(result):
        raise RuntimeError("no text content block")
    if tool and tool.get("outputSchema") and not isinstance(result.get("structuredContent"), dict):
        raise RuntimeError("the tool declares an outputSchema but the result has no structuredContent")


async def step(name: str, fn: Any) -> bool:
    try:
        detail = await fn()
        report(name, True, detail or "")
        return True
    except NotApplicable as na:
        report(name, None, str(na))
        return True
    except Exception as error:  # every failure of a step is reported, never raised
        report(name, False, f"{type(error).__name__}: {error}")
        return False


class Driver:
    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.scenario = json.load(open(options.scenario, encoding="utf-8"))
        self.plan = self.scenario["servers"][options.server]
        self.updates: set[str] = set()
        self.updated = anyio.Event()
        self.probes: list[str] = []

    def client(self, mode: str = "auto") -> Client:
        o = self.options
        if o.transport == "stdio":
            args = [o.bin, *self.plan.get("args", []), "--log-level", "warning"]
            server: Any = StdioServerParameters(command=o.node, args=args, env={"CODE_CLUSTER_DATA_DIR": o.data_dir})
        else:
            server = o.url
        return Client(server, mode=mode, message_handler=self.on_message, read_timeout_seconds=120)

    async def on_message(self, message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            self.updates.add(message.params.uri)
            self.updated.set()

    async def run(self) -> None:
        plan = self.plan
        original_discover = ClientSession.send_discover

        async def observed_discover(session: ClientSession, version: str) -> dict[str, Any]:
            try:
                result = await original_discover(session, version)
            except MCPError as error:
                self.probes.append(f"server/discover {version} → {error.code} {error.error.message}")
                raise
            self.probes.append(f"server/discover {version} → a result")
            return result

        ClientSession.send_discover = observed_discover  # type: ignore[method-assign]
        client = self.client("auto")
        try:
            await client.__aenter__()
        except Exception as error:
            report("connect", False, f"{type(error).__name__}: {error}; {'; '.join(self.probes)}")
            return
        finally:
            ClientSession.send_discover = original_discover  # type: ignore[method-assign]
        try:
            if not self.probes or client.session.initialize_result is None:
                report("connect", False, f"expected a server/discover probe, then initialize: {self.probes}")
            else:
                report("connect", True, f"negotiated {client.protocol_version}; {self.probes[0]}, then initialize")
            await self.scenario_steps(client)
        finally:
            await client.__aexit__(None, None, None)

        for version in self.scenario["versions"]:
            await step(f"version {version}", lambda v=version: self.pinned(v))

    async def pinned(self, version: str) -> str:
        original = session_module.LATEST_HANDSHAKE_VERSION
        session_module.LATEST_HANDSHAKE_VERSION = version
        try:
            async with self.client("legacy") as client:
                if client.protocol_version != version:
                    raise RuntimeError(f"asked {version}, negotiated {client.protocol_version}")
                tools = [plain(t) for t in (await client.list_tools()).tools]
                probe = self.plan["probe"]
                tool = next((t for t in tools if t["name"] == probe["tool"]), None)
                if tool is None:
                    raise RuntimeError(f"{probe['tool']} not listed")
                check_tool_result(tool, plain(await client.call_tool(probe["tool"], probe["arguments"])))
                return f"negotiated {version}; tools/list and {probe['tool']}"
        finally:
            session_module.LATEST_HANDSHAKE_VERSION = original

    async def scenario_steps(self, client: Client) -> None:
        plan = self.plan
        listed: dict[str, list[dict[str, Any]]] = {"tools": [], "resources": [], "templates": [], "prompts": []}

        async def all_pages(method: Any, key: str) -> list[dict[str, Any]]:
            items: list[dict[str, Any]] = []
            cursor = None
            while True:
                page = await method(cursor=cursor)
                items += [plain(i) for i in getattr(page, key)]
                cursor = page.next_cursor
                if not cursor:
                    return items

        async def tools_list() -> str:
            listed["tools"] = await all_pages(client.list_tools, "tools")
            missing = [t["name"] for t in listed["tools"] if not any(c["tool"] == t["name"] for c in plan["calls"])]
            if missing:
                raise RuntimeError(f"listed but not in scenario.json: {', '.join(missing)}")
            return f"{len(listed['tools'])} tools; structuredContent validated against each outputSchema by the SDK"

        async def resources_list() -> str:
            listed["resources"] = await all_pages(client.list_resources, "resources")
            return f"{len(listed['resources'])} resources"

        async def templates_list() -> str:
            listed["templates"] = await all_pages(client.list_resource_templates, "resource_templates")
            missing = [t["uriTemplate"] for t in listed["templates"] if t["uriTemplate"] not in plan.get("templates", {})]
            if missing:
                raise RuntimeError(f"listed but not in scenario.json: {', '.join(missing)}")
            return f"{len(listed['templates'])} templates"

        async def prompts_list() -> str:
            listed["prompts"] = await all_pages(client.list_prompts, "prompts")
            missing = [p["name"] for p in listed["prompts"] if p["name"] not in plan.get("prompts", {})]
            if missing:
                raise RuntimeError(f"listed but not in scenario.json: {', '.join(missing)}")
            return f"{len(listed['prompts'])} prompts"

        await step("tools/list", tools_list)
        await step("resources/list", resources_list)
        await step("resources/templates/list", templates_list)
        await step("prompts/list", prompts_list)

        saved: dict[str, Any] = {}
        for call in plan["calls"]:
            tool = next((t for t in listed["tools"] if t["name"] == call["tool"]), None)

            async def call_step(call: dict[str, Any] = call, tool: dict[str, Any] | None = tool) -> str:
                args = resolve_args(call["arguments"], saved)
                if call.get("long"):
                    result, detail = await self.cancel_and_resume(client, call["tool"], args)
                else:
                    result, detail = plain(await client.call_tool(call["tool"], args)), ""
                    check_tool_result(tool, result)
                for name, path in call.get("save", {}).items():
                    value: Any = result.get("structuredContent")
                    for key in path.split("."):
                        value = value.get(key) if isinstance(value, dict) else None
                    if value is None:
                        raise RuntimeError(f"structuredContent has no {path} to save")
                    saved[name] = value
                return detail

            await step(f"tools/call {call['tool']}", call_step)

        static = [
            r["uri"]
            for r in listed["resources"]
            if not any(matches_template(r["uri"], t["uriTemplate"]) for t in listed["templates"])
        ]
        instances = [plan["templates"][t["uriTemplate"]] for t in listed["templates"] if t["uriTemplate"] in plan["templates"]]
        for uri in static + instances:

            async def read(uri: str = uri) -> str:
                contents = plain(await client.read_resource(uri)).get("contents", [])
                if not contents:
                    raise RuntimeError("no contents")
                for c in contents:
                    if not c.get("uri") or not (isinstance(c.get("text"), str) or isinstance(c.get("blob"), str)):
                        raise RuntimeError(f"a content block without uri and text/blob: {json.dumps(c)[:200]}")
                return f"{len(contents)} block(s)"

            await step(f"resources/read {uri}", read)

        for prompt in listed["prompts"]:

            async def get(name: str = prompt["name"]) -> str:
                messages = plain(await client.get_prompt(name, plan["prompts"][name])).get("messages", [])
                if not messages:
                    raise RuntimeError("no messages")
                return f"{len(messages)} message(s)"

            await step(f"prompts/get {prompt['name']}", get)

        for completion in plan.get("completions", []):
            ref_spec = completion["ref"]
            target = ref_spec.get("uri") or ref_spec.get("name")

            async def complete(completion: dict[str, Any] = completion, ref_spec: dict[str, Any] = ref_spec) -> str:
                ref: Any = (
                    types.ResourceTemplateReference(type="ref/resource", uri=ref_spec["uri"])
                    if ref_spec["type"] == "ref/resource"
                    else types.PromptReference(type="ref/prompt", name=ref_spec["name"])
                )
                result = await client.complete(ref, completion["argument"], completion.get("context"))
                values = result.completion.values
                if completion["expect"] not in values:
                    raise RuntimeError(f"expected {completion['expect']} among {values}")
                return f"{len(values)} value(s)"

            await step(f"completion/complete {target} {completion['argument']['name']}", complete)

        if "subscribe" in plan:
            subscription = plan["subscribe"]

            async def subscribe() -> str:
                resources = client.server_capabilities.resources
                if not (resources and resources.subscribe):
                    raise NotApplicable("the server does not advertise resources.subscribe")
                uri = subscription["uri"]
                await client.session.subscribe_resource(uri)
                trigger = subscription["trigger"]
                tool = next((t for t in listed["tools"] if t["name"] == trigger["tool"]), None)
                check_tool_result(tool, plain(await client.call_tool(trigger["tool"], trigger["arguments"])))
                with anyio.move_on_after(UPDATE_TIMEOUT_S):
                    while uri not in self.updates:
                        await self.updated.wait()
                        self.updated = anyio.Event()
                if uri not in self.updates:
                    raise RuntimeError(f"no notifications/resources/updated for {uri} within {UPDATE_TIMEOUT_S} s")
                await client.session.unsubscribe_resource(uri)
                return f"notifications/resources/updated after {trigger['tool']}; unsubscribed"

            await step(f"resources/subscribe {subscription['uri']}", subscribe)

    async def cancel_and_resume(self, client: Client, name: str, args: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """Cancelled on its first progress notification, then called again: see cancelAndResume in
        lib/scenario.mjs for why the second call proves the server stopped."""
        before = 0
        finished: list[Any] = []
        async with anyio.create_task_group() as group:

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                nonlocal before
                before += 1
                if before == 1:
                    group.cancel_scope.cancel()

            async def first() -> None:
                finished.append(await client.call_tool(name, args, progress_callback=on_progress))

            group.start_soon(first)
        if finished:
            raise RuntimeError("the call finished although it was cancelled on its first progress")
        resumed = plain(await client.call_tool(name, args))
        if resumed.get("isError"):
            raise RuntimeError(f"the resumed call failed: {text_of(resumed)[:300]}")
        data = resumed.get("structuredContent") or {}
        start = data.get("tramos_hechos", 0) - data.get("tramos_en_esta_llamada", 0)
        if data.get("estado") != "completada" or data.get("tramos_hechos") != data.get("tramos_totales"):
            raise RuntimeError(f"the resumed call did not complete the route: {json.dumps(data)[:300]}")
        if not (1 <= start <= before + 1):
            raise RuntimeError(
                f"cancelled after {before} progress notification(s), but {start} of {data['tramos_totales']} legs "
                "were already driven when the call was resumed: the server went on after notifications/cancelled"
            )
        return resumed, f"cancelled on progress 1 with {start}/{data['tramos_totales']} legs driven; resumed to the end"


def main() -> None:
    parser = argparse.ArgumentParser()
    for name in ("--server", "--transport", "--scenario", "--data-dir", "--node", "--bin", "--url"):
        parser.add_argument(name)
    options = parser.parse_args()
    try:
        anyio.run(Driver(options).run)
    except Exception as error:  # the driver reports, run.mjs decides
        report("driver", False, f"{type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
