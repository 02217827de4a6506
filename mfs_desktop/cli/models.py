"""`mfs-desktop models …`: list the GGUFs on this machine, download, use, remove."""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.chat_template import FAMILIES
from mfs_desktop.runtime.download import Progress
from mfs_desktop.services.display import shown_line
from mfs_desktop.services.units import byte_size, duration

OpenSession = Callable[[argparse.Namespace], Any]


def _row(model) -> dict:
    info = model.info
    return {"path": info.path, "source": model.source, "label": model.label, "size": info.size,
            "architecture": info.architecture, "parameters": info.parameters,
            "context_length": info.context_length, "quantization": info.quantization,
            "chat_template": info.chat_template, "usable": info.usable, "problem": info.problem}


def cmd_models_list(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.services.models.actions import available_memory, fit_to_machine
    from mfs_desktop.services.models.library import list_models
    from mfs_desktop.services.preferences import load_preferences

    session = open_session(args)
    models = list_models(session.database, session.data_dir)
    current = load_preferences(session.database).model_path
    free = available_memory()  # one reading for the whole list, so every row is judged alike
    if args.json:
        rows = []
        for model in models:
            row = _row(model)
            if model.info.usable:
                fit = fit_to_machine(model.info, free)
                row |= {"window": fit.window, "fits": fit.fits, "memory_estimate": fit.estimate}
            rows.append(row)
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    if not models:
        print("(no GGUF model files found)")
    for model in models:
        info = model.info
        mark = "*" if (current or "") == info.path or (not current and model.source == "bundled") else " "
        if info.usable:
            fit = fit_to_machine(info, free)
            what = (f"{info.architecture} {info.quantization} ctx {info.context_length:,}  "
                    f"{'fits' if fit.fits else 'too big'} (window {fit.window:,}, ~{byte_size(fit.estimate)})")
        else:
            what = f"unusable: {info.problem}"
        print(f"{mark} {model.source:<11} {byte_size(info.size):>9}  {shown_line(model.label)}\n"
              f"      {shown_line(what)}\n      {shown_line(info.path)}")
    return 0


def _progress_printer(stream=sys.stderr) -> Callable[[Progress], None]:
    interactive = stream.isatty()
    last = [0.0]

    def show(progress: Progress) -> None:
        now = time.monotonic()
        done = progress.total is not None and progress.done >= progress.total
        if not interactive and now - last[0] < 2 and not done:
            return
        last[0] = now
        total = f" of {byte_size(progress.total)}" if progress.total else ""
        percent = f" {progress.done / progress.total:6.1%}" if progress.total else ""
        eta = f"  ETA {duration(progress.eta)}" if progress.eta is not None else ""
        line = f"{byte_size(progress.done)}{total}{percent}  {byte_size(int(progress.speed))}/s{eta}"
        stream.write(("\r" + line + "   ") if interactive else line + "\n")
        stream.flush()

    return show


def cmd_models_download(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.services.models.actions import download_model

    session = open_session(args)
    result = download_model(session, args.what, args.file, revision=args.revision, sha256=args.sha256,
                            on_progress=_progress_printer())
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    if result.resumed_from:
        print(f"resumed from {byte_size(result.resumed_from)}", file=sys.stderr)
    check = "verified" if result.verified else "no published checksum; computed"
    print(f"{result.path}\nsha256 {result.sha256} ({check})")
    print(f"use it with: mfs-desktop models use {result.path}", file=sys.stderr)
    return 0


def cmd_models_use(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.services.models.actions import use_model
    from mfs_desktop.store.conversation_models import set_conversation_model

    session = open_session(args)
    if args.path == "default":
        if not args.conversation:
            raise InvalidInput("`models use default` takes --conversation ID: that conversation follows the "
                               "default model again.")
        set_conversation_model(session.database, args.conversation, None)
        print(f"conversation {args.conversation} uses the default model")
        return 0
    chosen = use_model(session, Path(args.path), args.window, args.conversation, args.template)
    fit = chosen.fit
    where = f"in conversation {args.conversation}" if args.conversation else "as the default"
    print(f"now using {shown_line(chosen.info.path)} {where}\nwindow {fit.window:,} tokens (the file's context: "
          f"{chosen.info.context_length:,}); memory estimate {byte_size(fit.estimate)} of "
          f"{byte_size(fit.budget)} available to models")
    if not fit.fits:
        print("warning: this model is larger than the memory free now; it may not load, or swap",
              file=sys.stderr)
    return 0


def cmd_models_remove(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.services.models.actions import remove_model

    was_default = remove_model(open_session(args), Path(args.path))
    print(f"removed {args.path}" + ("; the bundled model is the default again" if was_default else ""))
    return 0


def cmd_models_catalogue(args: argparse.Namespace, _open_session: OpenSession) -> int:
    from mfs_desktop.services.models.actions import available_memory, fit_to_machine
    from mfs_desktop.services.models.catalogue import CATALOGUE

    rows, free = [], available_memory()
    for entry in CATALOGUE:
        fit = fit_to_machine(entry.as_info(), free)
        rows.append(asdict(entry) | {"fits": fit.fits, "window": fit.window, "memory_estimate": fit.estimate})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for row in rows:
        marks = [mark for mark, on in (("中文", row["chinese"]), ("thinks", row["thinks"]), ("tools", row["tools"]))
                 if on]
        flags = " ".join([*marks, "fits" if row["fits"] else "too big for this machine"])
        print(f"{row['key']:<13} {row['title']:<24} {byte_size(row['size']):>8}  {flags}; {row['note']}\n"
              f"              mfs-desktop models download {row['repo']} {row['file']}")
    return 0


def cmd_models_folder(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.services.models.library import set_user_folders, user_folders

    session = open_session(args)
    folders = user_folders(session.database)
    if args.action == "add":
        folder = Path(args.folder).expanduser().resolve()
        if not folder.is_dir():
            raise InvalidInput(f"{args.folder} is not a folder.")
        folders = set_user_folders(session.database, [*folders, folder])
    elif args.action == "remove":
        folders = set_user_folders(session.database, [f for f in folders if f != Path(args.folder).resolve()])
    for folder in folders:
        print(folder)
    return 0


def cmd_models_token(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.services.models.actions import save_hub_token

    token = "" if args.clear else (sys.stdin.readline().strip() if not sys.stdin.isatty()
                                   else getpass.getpass("Hugging Face token: "))
    if not args.clear and not token:
        raise InvalidInput("No token given; nothing was changed.")
    where = save_hub_token(open_session(args), token)
    print(f"token saved ({where})" if where else "token removed")
    return 0


def add_models_commands(commands: Any, open_session: OpenSession) -> None:
    models = commands.add_parser("models", help="GGUF models on this machine: list, download, use, remove")
    actions = models.add_subparsers(title="actions", metavar="ACTION", required=True)

    def action(name: str, handler: Callable[[argparse.Namespace, OpenSession], int], text: str):
        sub = actions.add_parser(name, help=text)
        sub.set_defaults(handler=lambda args: handler(args, open_session))
        return sub

    listing = action("list", cmd_models_list, "every GGUF found: bundled, downloaded, LM Studio, GPT4All, Jan, "
                                              "the Hugging Face cache, Ollama, your folders")
    listing.add_argument("--json", action="store_true")
    fetch = action("download", cmd_models_download, "download REPO FILE from the Hugging Face Hub, or a URL")
    fetch.add_argument("what", metavar="REPO|URL")
    fetch.add_argument("file", nargs="?", metavar="FILE")
    fetch.add_argument("--revision", default="main")
    fetch.add_argument("--sha256", metavar="HEX", help="the file's SHA-256 (the Hub's own is used otherwise)")
    use = action("use", cmd_models_use, "make a GGUF file the default model, or one conversation's")
    use.add_argument("path", help="a GGUF file, or `default` (with --conversation) to follow the default again")
    use.add_argument("--conversation", metavar="ID", help="only this conversation runs on it")
    use.add_argument("--window", type=int, help="window in tokens (default: what fits this machine)")
    use.add_argument("--template", metavar="FAMILY", help="use a known family's chat template for this file instead "
                     f"of its own ({', '.join(FAMILIES)}; `own` goes back to the file's own)",
                     type=lambda text: "" if text == "own" else text)
    action("remove", cmd_models_remove, "delete a model MFS Desktop downloaded").add_argument("path")
    action("catalogue", cmd_models_catalogue, "well-known instruct models and whether each fits here"
           ).add_argument("--json", action="store_true")
    folder = action("folder", cmd_models_folder, "folders of your own to look in: list, add, remove")
    folder.add_argument("action", choices=("list", "add", "remove"))
    folder.add_argument("folder", nargs="?", default="")
    action("token", cmd_models_token, "save a Hugging Face token (from standard input) for gated models"
           ).add_argument("--clear", action="store_true")
