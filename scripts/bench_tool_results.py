#!/usr/bin/env python3
"""Tool results in the context (issue 49 item 5), as JSON.

A long tool-using conversation at a small window with a real MCP server that no one here wrote
(@modelcontextprotocol/server-filesystem from npm) reading real files someone else wrote: each
turn asks for one file, the scripted model calls read_text_file, the real server answers, the
result enters the transcript (cut to its share of the window, the whole kept as a snapshot) and
the context engine folds old turns as it does for any conversation. At the end the request the
next question would be sent with is read: of the paths, error names and numbers the model was
shown in results that have left the window verbatim, how many does it still carry?

Usage: .venv/bin/python scripts/bench_tool_results.py SOURCE_DIR [--window 4096] [--files 40]
SOURCE_DIR: a folder of someone else's text files (docs/benchmarks.md names the one used).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mfs_desktop.profile import ContextProfile  # noqa: E402
from mfs_desktop.runtime.fake import FakeModel, Step  # noqa: E402
from mfs_desktop.runtime.mcp_client import McpServer  # noqa: E402
from mfs_desktop.services.conversation.chat import ChatService  # noqa: E402
from mfs_desktop.services.mcp.servers import ask_tools, save_server  # noqa: E402
from mfs_desktop.services.mcp.toolbox import McpToolbox, allow_every_call  # noqa: E402
from mfs_desktop.services.session import open_session  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402
from mfs_desktop.store import ledger  # noqa: E402

FILESYSTEM = REPO / ".venv" / "mcp-npm" / "node_modules" / ".bin" / "mcp-server-filesystem"
ERROR_NAME = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b")
NUMBER = re.compile(r"(?<![\w.])\d{3,}(?![\w.])")


def facts_of(path: str, shown: str) -> dict[str, set[str]]:
    """What a person would ask about again: the file's path, error names, numbers of 3+ digits."""
    return {"path": {path}, "error": set(ERROR_NAME.findall(shown)), "number": set(NUMBER.findall(shown))}


def run(source: Path, window: int, count: int) -> dict:
    files = sorted(p for p in source.rglob("*.py") if p.stat().st_size > 200)[:count]
    script = []
    for path in files:
        script += [Step("tool_call", tool_name="read_text_file", arguments=json.dumps({"path": str(path)})),
                   Step("text", f"{path.name} is read; ask me about it.")]
    with tempfile.TemporaryDirectory() as scratch:
        session = open_session(DataDir(Path(scratch) / "d"), lambda new: "bench", use_keychain=False, scrypt_n=2**12)
        save_server(session, McpServer("files", str(FILESYSTEM), (str(source),)))
        ask_tools(session.database, "files")
        service = ChatService(session, FakeModel(script), provider="fake", profile=ContextProfile(window=window),
                              max_tool_rounds=2, external_tools=McpToolbox(session.database, allow_every_call))
        conversation = session.transcript.create_conversation().id
        started = time.perf_counter()
        try:
            for path in files:
                service.send(conversation, f"Read {path.relative_to(source)} and keep what matters.")
                service.precompactor.wait(conversation)  # as a person reading the answer gives it time
            request = service.assembled(conversation, extra_input="Which errors and numbers did those files have?")
        finally:
            service.close()
        seconds = time.perf_counter() - started
        sent = "\n".join(message.content for message in request.view.messages)
        results = [m for m in session.transcript.messages(conversation) if m.role == "tool"]
        calls = [m for m in session.transcript.messages(conversation) if m.role == "assistant" and m.tool_name]
        kinds = {"path": [0, 0], "error": [0, 0], "number": [0, 0]}
        left = 0
        for call, result in zip(calls, results, strict=True):
            if result.text[:300] in sent:  # still verbatim in the request: nothing to keep
                continue
            left += 1
            path = json.loads(call.tool_arguments or "{}").get("path", "")
            for kind, found in facts_of(path, result.text).items():
                kinds[kind][0] += len(found)
                kinds[kind][1] += sum(1 for fact in found if fact in sent)
        events = [entry.event for entry in ledger.entries(session.database, conversation)]
        snapshots = sum(1 for result in results if result.attachment_sha256)
        session.close()
    return {
        "window": window, "files": len(files), "results_cut_to_snapshot": snapshots,
        "results_left_the_window": left, "request_tokens": request.report.tokens,
        "kept": {kind: {"facts": total, "in_request": kept, "share": round(kept / total, 3) if total else None}
                 for kind, (total, kept) in kinds.items()},
        "compactions": events.count("compaction"), "tool_results_cleared": events.count("tool_results_cleared"),
        "seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("source", type=Path)
    parser.add_argument("--window", type=int, nargs="+", default=[4096])
    parser.add_argument("--files", type=int, default=40)
    args = parser.parse_args()
    if not FILESYSTEM.exists():
        sys.exit("the npm filesystem server is installed by scripts/bootstrap --tests")
    print(json.dumps([run(args.source.resolve(), window, args.files) for window in args.window], indent=1))


if __name__ == "__main__":
    main()
