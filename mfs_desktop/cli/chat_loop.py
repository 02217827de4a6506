"""`mfs-desktop chat`: the same services the window uses, in a terminal."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
import threading
from collections.abc import Callable

from mfs_desktop.errors import ConversationBusy
from mfs_desktop.profile import ContextProfile
from mfs_desktop.runtime.protocol import Sinks
from mfs_desktop.services.conversation.chat import ChatService, TurnResult
from mfs_desktop.services.conversation.intake import queue_message, refuse_unsendable
from mfs_desktop.services.conversation.owner import claimable, is_running, owner_pid
from mfs_desktop.services.conversation.turn import TOOL_LIMIT
from mfs_desktop.services.display import shown
from mfs_desktop.services.mcp.toolbox import ALWAYS, DENY, ONCE, ApprovalRequest, allow_every_call, toolbox_for
from mfs_desktop.services.models.choice import DEFAULT_WINDOW, ModelChoice, build_model
from mfs_desktop.services.preferences import load_preferences
from mfs_desktop.services.session import Session

log = logging.getLogger(__name__)


def _interruptible(work: Callable[[threading.Event], TurnResult]) -> TurnResult:
    """Run a generation on a worker; Ctrl-C stops it and keeps the partial answer."""
    cancel = threading.Event()
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["result"] = work(cancel)
        except BaseException as exc:  # re-raised on the main thread
            outcome["error"] = exc

    worker = threading.Thread(target=target, name="generation", daemon=True)
    worker.start()
    while worker.is_alive():
        try:
            worker.join(0.1)
        except KeyboardInterrupt:
            cancel.set()
            print("\n[stopping…]", file=sys.stderr)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["result"]  # type: ignore[return-value]


def _printer(enabled: bool) -> Sinks:
    """The answer to stdout as it streams; a thinking model's thought is not printed, only a
    mark on stderr that it is thinking (the thought is kept apart: `chat --json` gives it)."""
    thinking: list[bool] = []

    def show(piece: str) -> None:
        if enabled:  # an answer's escape sequences or bidi overrides are shown, never obeyed
            sys.stdout.write(shown(piece))
            sys.stdout.flush()

    def thought(_piece: str) -> None:
        if enabled and not thinking:
            thinking.append(True)
            print("[thinking…]", file=sys.stderr, flush=True)

    return Sinks(show, thought)


def approve_on_terminal(request: ApprovalRequest) -> str:
    """Ask before an MCP tool runs; without a terminal to ask on, the call is denied."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        print(f"[denied {request.server}/{request.tool}: no terminal to ask on; --approve-tools runs calls]",
              file=sys.stderr)
        return DENY
    print(f"\n[tool call] {request.server} · {request.tool} · {shown(request.arguments)}", file=sys.stderr)
    try:
        answer = input("allow? [y]es once / [a]lways this tool / [N]o: ").strip().lower()
    except EOFError:
        return DENY
    return {"y": ONCE, "yes": ONCE, "a": ALWAYS, "always": ALWAYS}.get(answer, DENY)


def _report(result: TurnResult, as_json: bool) -> None:
    if result.messages_left_out:
        print(f"[{result.messages_left_out} oldest messages were not sent: the window is full]", file=sys.stderr)
    if as_json:
        print(json.dumps({
            "conversation_id": result.conversation_id,
            "generation_id": result.generation_id,
            "answer": result.answer,
            "thinking": result.thinking,
            "status": result.status,
            "finish_reason": result.finish_reason,
            "usage": dataclasses.asdict(result.usage),
            "messages_left_out": result.messages_left_out,
        }, ensure_ascii=False))
        return
    if result.status == "partial":
        sys.stdout.write(" [stopped: partial answer kept]")
    if result.thinking:  # kept apart, never printed into the answer
        sys.stdout.write(f" [thought first: {result.usage.thinking_tokens:,} tokens in "
                         f"{result.usage.thinking_ms / 1000:.1f} s, kept apart]")
    if result.finish_reason == TOOL_LIMIT:
        sys.stdout.write(" [the model kept calling tools past the limit; nothing more was run]")
    if result.usage.thinking_capped:
        sys.stdout.write(" [the thinking reached its cap (configure --thinking-tokens) and was cut short]")
    sys.stdout.write("\n")
    sys.stdout.flush()


def chosen_model(args: argparse.Namespace, session: Session) -> ModelChoice:
    """`--model` and `--window` win; else the conversation's own model, else the default one
    from Settings (`models use`)."""
    from mfs_desktop.services.models.actions import model_choice_for
    if args.provider != "embedded" or args.model:
        return ModelChoice(args.provider, args.model, args.window or DEFAULT_WINDOW)
    saved = load_preferences(session.database).model_choice()
    default = ModelChoice("embedded", saved.model_path if saved.provider == "embedded" else None, saved.window,
                          saved.threads)
    choice = model_choice_for(session.database, default, args.conversation)
    return dataclasses.replace(choice, window=args.window) if args.window else choice


def run_chat(args: argparse.Namespace, session: Session) -> int:
    choice = chosen_model(args, session)
    profile = ContextProfile(window=choice.window)
    if args.message is not None:
        refuse_unsendable(args.message, profile)  # before a conversation is created for it
    conversation_id = args.conversation or session.transcript.create_conversation().id
    session.transcript.conversation(conversation_id)  # a plain error for an unknown id, before loading a model
    if args.message is not None:
        queue_message(session, conversation_id, args.message, profile)
    model = build_model(choice, session.database)
    log.info("chat: conversation %s on %s, window %d", conversation_id, model.name, choice.window)
    service = ChatService(
        session, model, provider=args.provider, profile=profile,
        sampling_overrides={name: getattr(args, name) for name in ("max_tokens", "temperature", "seed")
                            if getattr(args, name) is not None},
        cache_bytes=load_preferences(session.database).cache_bytes,
        external_tools=toolbox_for(session.database, allow_every_call if args.approve_tools else approve_on_terminal),
    )
    try:
        if args.conversation:  # a saved cache, then a prefill of the rest: the answer starts sooner
            warmed = service.warm(conversation_id)
            if warmed is not None:
                log.info("chat: conversation %s warmed: %d tokens restored, %d reused, %d evaluated, %.0f ms",
                         conversation_id, warmed.restored_tokens, warmed.reused_tokens, warmed.evaluated_tokens,
                         warmed.seconds * 1000)
        return _converse(args, service, conversation_id, model.name)
    finally:
        if service.precompactor.busy(conversation_id):
            print("[organizing context before exit…]", file=sys.stderr)
        service.close()


def _converse(args: argparse.Namespace, service: ChatService, conversation_id: str, model_name: str) -> int:
    show = _printer(not args.json)
    for pending in service.generations.unfinished(conversation_id):
        if is_running(pending.owner):
            print(f"[another MFS Desktop process (pid {owner_pid(pending.owner or '')}) is writing an answer here; "
                  "yours follows]", file=sys.stderr)
            continue
        print(f"[finishing an interrupted answer, generation {pending.id}]", file=sys.stderr)
        try:
            _report(_interruptible(lambda cancel, g=pending.id: service.resume(g, on_text=show, cancel=cancel)),
                    args.json)
        except ConversationBusy:  # another process took it over a moment ago
            print(f"[another process took over generation {pending.id}]", file=sys.stderr)
    # The message given (stored before the model loaded), and any a killed run left waiting.
    if service.outbox.waiting(conversation_id, claimable):
        _report(_interruptible(lambda cancel: service.answer_waiting(conversation_id, on_text=show, cancel=cancel)),
                args.json)
    if args.message is not None:
        return 0
    print(f"conversation {conversation_id} · {model_name} · /regenerate, /quit", file=sys.stderr)
    while True:
        try:
            line = input("you> ")
        except (EOFError, KeyboardInterrupt):
            print(file=sys.stderr)
            return 0
        if line.strip() in ("/quit", "/exit"):
            return 0
        if not line.strip():
            continue
        if line.strip() == "/regenerate":
            work = lambda cancel: service.regenerate(conversation_id, on_text=show, cancel=cancel)  # noqa: E731
        else:
            work = lambda cancel, text=line: service.send(conversation_id, text, on_text=show, cancel=cancel)  # noqa: E731
        _report(_interruptible(work), args.json)

