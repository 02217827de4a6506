#!/usr/bin/env python3
"""Crash safety measured (issue 27 item 3), printed as JSON.

A real `mfs-desktop` process is killed with SIGKILL at random moments during three kinds of
work: a streamed chat turn (`chat --provider fake`, which also finishes interrupted answers
and compacts at a 2,048-token window), a replay whose compactions commit segments, and a
rekey. After every kill the data folder is opened in this process and checked:

- `PRAGMA integrity_check` is "ok", and the database opens with one of the passphrases;
- every message the killed process had acknowledged (it streamed text or announced a
  resume, both after the message is stored) is present exactly once, no message is present
  twice, and messages keep the order they were given in (transcript, then outbox);
- the active segments cover the transcript without a gap or an overlap and end inside it
  (no half-committed segment is active);
- the conversation continues: a turn through the services is answered and stored.

A kill survived is one after which every check passed; `kills_survived == kills_total` is
the target. Texts mix English, Chinese and German, with numbers, paths and commands.
Usage: scripts/fault_matrix.py [--kills 30] [--seed 27] [--cases chat,replay,rekey]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mfs_desktop.compaction.coverage import check_coverage  # noqa: E402
from mfs_desktop.paths import DATABASE_FILENAME, VAULT_FILENAME  # noqa: E402
from mfs_desktop.runtime.fake import FakeModel  # noqa: E402
from mfs_desktop.services.conversation.chat import ChatService  # noqa: E402
from mfs_desktop.services.session import Session, open_session  # noqa: E402
from mfs_desktop.services.transfer.exports import export_json  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402

PASSPHRASES = ("first passphrase for the matrix", "zweites Passwort 第二个口令")
WINDOW = "2048"
LINES = (
    "I moved the backups to /srv/backup/2024-05 and the cron job runs `rsync -a --delete` at 03:15.",
    "记住，周五不要给我安排会议；报告在 D:\\reports\\q3.xlsx，截止日期是 11 月 28 日。",
    "Der Server antwortet mit ERROR 502 nach 30 Sekunden; bitte immer metrische Einheiten verwenden.",
    "The build failed with `ModuleNotFoundError: No module named 'yaml'` after pip install -r requirements.txt.",
    "我们把预算从 12,000 元提高到 15,500 元，请以后所有脚本一律用 LF 换行。",
    "Please call me Sam from now on; the meeting moved to room 4.12 on the 7th floor.",
)


@dataclass
class CaseResult:
    kills: int = 0
    survived: int = 0
    finished_first: int = 0  # runs that ended before their kill landed: checked all the same
    inputs: list[dict] = field(default_factory=list)  # the bad-input case: what each was told
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def judge(self, problems: list[str], label: str, killed: bool) -> None:
        self.kills += 1
        self.finished_first += not killed
        if problems:
            self.failures.append(f"{label}: {'; '.join(problems)}")
        else:
            self.survived += 1


class Child:
    """A CLI process whose output is collected by threads, so a kill never blocks on a pipe."""

    def __init__(self, root: Path, args: list[str], passphrase: str, **env: str) -> None:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("MFS_")}
        environment.update(MFS_KEY_STORE="passphrase", MFS_PASSPHRASE=passphrase, **env)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mfs_desktop", "--data-dir", str(root), *args], cwd=REPO, env=environment,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.output = bytearray()
        self.started = time.monotonic()
        self._readers = [threading.Thread(target=self._collect, args=(stream,), daemon=True)
                         for stream in (self.process.stdout, self.process.stderr)]
        for reader in self._readers:
            reader.start()

    def _collect(self, stream) -> None:
        for chunk in iter(lambda: stream.read1(4096), b""):
            self.output.extend(chunk)

    def kill_after(self, seconds: float) -> bool:
        """SIGKILL at `seconds` after start; False when the process had already finished."""
        try:
            self.process.wait(max(0.0, seconds - (time.monotonic() - self.started)))
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self._join()
            return True
        self._join()
        return False

    def finish(self, timeout: float = 300) -> int:
        code = self.process.wait(timeout)
        self._join()
        return code

    def _join(self) -> None:
        for reader in self._readers:
            reader.join(10)


def open_checked(root: Path, passphrases: tuple[str, ...]) -> tuple[Session | None, str, list[str]]:
    """Open with the first passphrase that works; integrity and segment coverage checked."""
    refusals: list[str] = []
    for passphrase in passphrases:
        try:
            session = open_session(DataDir(root), lambda new, p=passphrase: p, use_keychain=False)
        except Exception as exc:  # noqa: BLE001 (each failure is a finding, reported by name)
            refusals.append(f"open with passphrase {PASSPHRASES.index(passphrase)}: {type(exc).__name__}: {exc}")
            continue
        problems: list[str] = []
        integrity = [row[0] for row in session.database.connection().execute("PRAGMA integrity_check")]
        if integrity != ["ok"]:
            problems.append(f"integrity_check: {integrity[:3]}")
        for summary in session.transcript.list_conversations():
            problems.extend(segment_problems(session, summary.id))
        return session, passphrase, problems
    return None, "", refusals


def segment_problems(session: Session, conversation_id: str) -> list[str]:
    from mfs_desktop.store.segments import SegmentStore

    conversation = session.transcript.conversation(conversation_id)
    if conversation.memory_mode != "automatic":
        return []
    uids = [m.uid for m in session.transcript.messages(conversation_id)]
    block = SegmentStore(session.database).active_block(conversation_id)
    coverage = check_coverage([(s.uid_start, s.uid_end) for s in block], uids, conversation.lineage_base_uid)
    problems = [] if coverage.ok else [f"coverage: {len(coverage.gaps)} gaps, {len(coverage.overlaps)} overlaps"]
    if block and uids and block[-1].uid_end > uids[-1]:
        problems.append(f"a segment ends at uid {block[-1].uid_end}, after the last message {uids[-1]}")
    return problems


def given_in_order(session: Session, conversation_id: str, given: list[tuple[str, bool]]) -> list[str]:
    """`given`: (text, acknowledged). Stored = transcript then outbox, user messages only."""
    stored = [m.text for m in session.transcript.messages(conversation_id) if m.role == "user"]
    stored += [row[0] for row in session.database.connection().execute(
        "SELECT content FROM outbox WHERE conversation_id = ? ORDER BY seq", (conversation_id,))]
    problems = [f"stored twice: {text[:40]!r}" for text in set(stored) if stored.count(text) > 1]
    problems += [f"lost: {text[:40]!r}" for text, acknowledged in given if acknowledged and text not in stored]
    order = [text for text, _ in given if text in stored]
    if order != [text for text in stored if text in order]:
        problems.append("messages out of the order given")
    return problems


def continue_conversation(session: Session, conversation_id: str, text: str) -> list[str]:
    service = ChatService(session, FakeModel(), provider="fake", window=int(WINDOW), use_tools=False)
    try:
        result = service.send(conversation_id, text)
    except Exception as exc:  # noqa: BLE001
        return [f"the conversation does not continue: {type(exc).__name__}: {exc}"]
    finally:
        service.close()
    return [] if result.status == "completed" else [f"continuation ended {result.status}"]


def message(index: int, rng: random.Random) -> str:
    return f"turn {index}: " + " ".join(rng.sample(LINES, 3))


def run_chat_case(base: Path, kills: int, rng: random.Random) -> CaseResult:
    """Kill during the streamed answer, the resume of an interrupted one, startup or compaction."""
    result = CaseResult()
    root = base / "chat"
    slow = json.dumps([{"kind": "text", "text": " ".join(f"w{i}" for i in range(150)), "delay": 0.008}])
    conversation_id = ""
    given: list[tuple[str, bool]] = []
    for index in range(kills):
        text = message(index, rng)
        target = ["--conversation", conversation_id] if conversation_id else []
        child = Child(root, ["chat", "--provider", "fake", "--window", WINDOW, *target, text], PASSPHRASES[0],
                      MFS_FAKE_SCRIPT=slow)
        killed = child.kill_after(rng.uniform(0.0, 2.5))
        acknowledged = b"w0" in child.output or b"finishing an interrupted answer" in child.output
        given.append((text, acknowledged or not killed))
        session, _, problems = open_checked(root, PASSPHRASES[:1])
        if session is not None:
            if not conversation_id:
                listed = session.transcript.list_conversations()
                conversation_id = listed[0].id if listed else ""
            if conversation_id:
                problems += given_in_order(session, conversation_id, given)
                check = f"continues after kill {index}"
                problems += continue_conversation(session, conversation_id, check)
                given.append((check, True))
            session.close()
        result.judge(problems, f"chat kill {index}", killed)
    return result


def synthetic_locomo(path: Path, rng: random.Random, sessions: int = 6, turns: int = 24) -> list[tuple[str, str]]:
    """A LoCoMo-format file; returns the (role, text) sequence a replay stores."""
    document: dict = {"speaker_a": "Lin", "speaker_b": "Max"}
    expected: list[tuple[str, str]] = []
    for number in range(1, sessions + 1):
        document[f"session_{number}_date_time"] = f"1:{10 + number:02d} pm on {number + 2} May, 2023"
        lines = [f"S{number}.{i} " + " ".join(rng.sample(LINES, 2)) for i in range(turns)]
        document[f"session_{number}"] = [{"speaker": "Lin" if i % 2 == 0 else "Max", "dia_id": f"D{number}:{i}",
                                          "text": line} for i, line in enumerate(lines)]
        expected += [("user" if i % 2 == 0 else "assistant", line) for i, line in enumerate(lines)]
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return expected


def run_replay_case(base: Path, kills: int, rng: random.Random) -> CaseResult:
    """Kill while messages are appended and compactions commit segments."""
    result = CaseResult()
    root = base / "replay"
    source = base / "replay-source.json"
    expected = synthetic_locomo(source, rng)
    args = ["replay", str(source), "--window", WINDOW, "--compactor", "fake", "--json"]
    timed = Child(root, args, PASSPHRASES[0])
    if timed.finish() != 0:
        raise SystemExit(f"an uninterrupted replay failed: {timed.output.decode(errors='replace')[-500:]}")
    duration = time.monotonic() - timed.started
    opened = open_session(DataDir(root), lambda new: PASSPHRASES[0], use_keychain=False)
    seen = {c.id for c in opened.transcript.list_conversations()}
    opened.close()
    for index in range(kills):
        child = Child(root, args, PASSPHRASES[0])
        killed = child.kill_after(rng.uniform(0.1, 1.0) * duration)
        session, _, problems = open_checked(root, PASSPHRASES[:1])
        if session is not None:
            new = [c.id for c in session.transcript.list_conversations() if c.id not in seen]
            seen.update(new)
            for conversation_id in new[:1]:  # the one this replay created, unless killed before
                stored = [(m.role, m.text) for m in session.transcript.messages(conversation_id)]
                if stored != expected[:len(stored)]:
                    problems.append(f"replayed messages are not a prefix of the source ({len(stored)} stored)")
                problems += continue_conversation(session, conversation_id, f"continues after replay kill {index}")
            session.close()
        result.judge(problems, f"replay kill {index}", killed)
    return result


def run_rekey_case(base: Path, kills: int, rng: random.Random) -> CaseResult:
    """Kill while the key record is written and every page is re-encrypted."""
    result = CaseResult()
    root = base / "rekey"
    session = open_session(DataDir(root), lambda new: PASSPHRASES[0], use_keychain=False)
    conversation_id = session.transcript.create_conversation("rekey").id
    for index in range(400):  # about 2.5 MB, so the re-encryption takes a while
        session.transcript.append(conversation_id, [MessageDraft("user", message(index, rng) * 12)])
    count = len(session.transcript.messages(conversation_id))
    session.close()
    current = PASSPHRASES[0]
    duration = 0.0
    for index in range(kills + 1):
        new = PASSPHRASES[1 - PASSPHRASES.index(current)]
        child = Child(root, ["rekey"], current, MFS_NEW_PASSPHRASE=new)
        if index == 0:  # the first one runs to the end, to time the others' kills
            if child.finish() != 0:
                raise SystemExit(f"an uninterrupted rekey failed: {child.output.decode(errors='replace')[-500:]}")
            duration = time.monotonic() - child.started
            current = new
            continue
        killed = child.kill_after(rng.uniform(0.0, 1.1) * duration)
        session, opened_with, problems = open_checked(root, (new, current))
        if session is not None:
            current = opened_with
            messages = session.transcript.messages(conversation_id)
            if len(messages) < count:
                problems.append(f"{count - len(messages)} messages missing after the rekey")
            problems += continue_conversation(session, conversation_id, f"continues after rekey kill {index}")
            count = len(session.transcript.messages(conversation_id))
            session.close()
        result.judge(problems, f"rekey kill {index}", killed)
    return result


@dataclass(frozen=True)
class BadInput:
    label: str
    args: tuple[str, ...]
    exit_code: int
    prepare: Callable[[Path, Path], None] = lambda data, scratch: None  # may damage `data`
    passphrase: str = PASSPHRASES[0]
    as_nobody: bool = False  # permission bits do not bind root


def _edit_key_file(change: Callable[[dict], None]) -> Callable[[Path, Path], None]:
    def prepare(data: Path, scratch: Path) -> None:
        record = json.loads((data / VAULT_FILENAME).read_text())
        change(record)
        (data / VAULT_FILENAME).write_text(json.dumps(record))
    return prepare


def _export_file(change: Callable[[dict], None], name: str) -> Callable[[Path, Path], None]:
    def prepare(data: Path, scratch: Path) -> None:
        session = open_session(DataDir(data), lambda new: PASSPHRASES[0], use_keychain=False)
        document = json.loads(export_json(session.database, session.transcript.list_conversations()[0].id))
        session.close()
        document["conversation"]["id"] = "f" * 32
        for message in document["messages"]:
            message["conversation_id"] = "f" * 32
        change(document)
        (scratch / name).write_text(json.dumps(document, ensure_ascii=False))
    return prepare


def _write(name: str, content: bytes, size: int = 0) -> Callable[[Path, Path], None]:
    def prepare(data: Path, scratch: Path) -> None:
        with open(scratch / name, "wb") as handle:
            handle.write(content)
            if size:
                handle.truncate(size)  # sparse
    return prepare


def _chmod(relative: str, mode: int) -> Callable[[Path, Path], None]:
    return lambda data, scratch: (data / relative).chmod(mode)


BAD_INPUTS = (
    BadInput("wrong passphrase", ("list",), 3, passphrase="not the passphrase"),
    BadInput(
        "database of random bytes",
        ("list",),
        5,
        lambda data, scratch: (data / DATABASE_FILENAME).write_bytes(os.urandom(65536)),
    ),
    BadInput(
        "database emptied to 0 bytes", ("list",), 5, lambda data, scratch: (data / DATABASE_FILENAME).write_bytes(b"")
    ),
    BadInput(
        "database truncated mid-page", ("list",), 5, lambda data, scratch: os.truncate(data / DATABASE_FILENAME, 5000)
    ),
    BadInput(
        "database missing beside its key file", ("list",), 4, lambda data, scratch: (data / DATABASE_FILENAME).unlink()
    ),
    BadInput("key file scrypt n = 3", ("list",), 4, _edit_key_file(lambda r: r["kdf"].update(n=3))),
    BadInput("key file scrypt n = 2^40", ("list",), 4, _edit_key_file(lambda r: r["kdf"].update(n=2**40))),
    BadInput("key file id not ASCII", ("list",), 4, _edit_key_file(lambda r: r.update(database_id="数据库"))),
    BadInput("key file not JSON", ("list",), 4, lambda data, scratch: (data / VAULT_FILENAME).write_text("{oops")),
    BadInput("data folder read-only", ("list",), 14, _chmod(".", 0o555), as_nobody=True),
    BadInput("database file read-only", ("list",), 14, _chmod(DATABASE_FILENAME, 0o444), as_nobody=True),
    BadInput("data folder without permissions", ("list",), 14, _chmod(".", 0), as_nobody=True),
    BadInput(
        "data folder path through a file",
        ("--data-dir", "{scratch}/file/data", "list"),
        14,
        _write("file", b"not a folder"),
    ),
    BadInput("export to /dev/full", ("export", "--conversation", "{conversation}", "--out", "/dev/full"), 15),
    BadInput(
        "export into a missing folder",
        ("export", "--conversation", "{conversation}", "--out", "{scratch}/missing/out.md"),
        14,
    ),
    BadInput(
        "import: updated_at 'yesterday'",
        ("import", "{scratch}/bad.json"),
        10,
        _export_file(lambda d: d["conversation"].update(updated_at="yesterday"), "bad.json"),
    ),
    BadInput(
        "import: updated_at 1e308",
        ("import", "{scratch}/bad.json"),
        10,
        _export_file(lambda d: d["conversation"].update(updated_at=1e308), "bad.json"),
    ),
    BadInput(
        "import: id '../x'",
        ("import", "{scratch}/bad.json"),
        10,
        _export_file(lambda d: d["conversation"].update(id="../x"), "bad.json"),
    ),
    BadInput(
        "import: uid 10^30",
        ("import", "{scratch}/bad.json"),
        10,
        _export_file(lambda d: d["messages"][0].update(uid=10**30), "bad.json"),
    ),
    BadInput(
        "import: role 'system'",
        ("import", "{scratch}/bad.json"),
        10,
        _export_file(lambda d: d["messages"][0].update(role="system"), "bad.json"),
    ),
    BadInput(
        "import: nesting 100,000 deep",
        ("import", "{scratch}/deep.json"),
        10,
        _write("deep.json", b"[" * 100_000 + b"]" * 100_000),
    ),
    BadInput("import: a 200 MB file", ("import", "{scratch}/huge.json"), 10, _write("huge.json", b"", 200 << 20)),
    BadInput(
        "import: not UTF-8",
        ("import", "{scratch}/latin1.json"),
        10,
        _write("latin1.json", '{"é": 1}'.encode("latin-1")),
    ),
    BadInput("chat: invalid UTF-8 on the command line", ("chat", "--provider", "fake", "bad \udcff bytes"), 10),
    BadInput(
        "chat: a 120 KB paste at a 2,048 window",
        ("chat", "--provider", "fake", "--window", "2048", "word " * 24_000),
        10,
    ),
    BadInput("chat: unknown conversation", ("chat", "--provider", "fake", "--conversation", "nope", "hi"), 9),
    BadInput(
        "chat: model file that is not a GGUF",
        ("chat", "--model", "{scratch}/fake.gguf", "hi"),
        9,
        _write("fake.gguf", b"definitely not a model" * 100),
    ),
    BadInput("chat: no endpoint configured", ("chat", "--provider", "openai", "hi"), 10),
)


def run_inputs_case(base: Path, kills: int, rng: random.Random) -> CaseResult:
    """Each bad input on a fresh copy of a healthy folder: exit code, one plain line, no bug
    path, and (where the input is not the folder itself) the folder unchanged."""
    import shutil

    result = CaseResult()
    template = base / "inputs-template"
    session = open_session(DataDir(template), lambda new: PASSPHRASES[0], use_keychain=False)
    conversation_id = session.transcript.create_conversation("template").id
    session.transcript.append(conversation_id, [MessageDraft("user", message(0, rng)), MessageDraft("assistant", "ok")])
    session.close()
    for index, bad in enumerate(BAD_INPUTS):
        scratch = base / f"input-{index}"
        scratch.mkdir(mode=0o755)
        data = scratch / "data"
        shutil.copytree(template, data)
        bad.prepare(data, scratch)
        prefix: tuple[str, ...] = ()
        if bad.as_nobody and os.geteuid() == 0:
            for item in (scratch, data, *data.iterdir()):
                os.chown(item, 65534, 65534)
            prefix = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--")
        args = [arg.format(scratch=scratch, conversation=conversation_id) for arg in bad.args]
        if "--data-dir" not in args:
            args = ["--data-dir", str(data), *args]
        environment = {k: v for k, v in os.environ.items() if not k.startswith("MFS_")}
        environment.update(MFS_KEY_STORE="passphrase", MFS_PASSPHRASE=bad.passphrase, HOME=str(scratch))
        run = subprocess.run([*prefix, sys.executable, "-m", "mfs_desktop", *args], capture_output=True, cwd=REPO,
                             env=environment, stdin=subprocess.DEVNULL, timeout=120)
        lines = run.stderr.decode("utf-8", "replace").strip().splitlines()
        problems = []
        if run.returncode != bad.exit_code:
            problems.append(f"exit {run.returncode}, expected {bad.exit_code}")
        if len(lines) != 1 or not lines[0].startswith("mfs-desktop: "):
            problems.append(f"not one plain line: {lines[-3:]}")
        if any("internal error" in line or "Traceback" in line for line in lines):
            problems.append("reached the bug path")
        data.chmod(0o700)
        result.judge(problems, bad.label, killed=True)
        result.inputs.append({"input": bad.label, "exit": run.returncode, "says": lines[0][13:160] if lines else ""})
    return result


CASES: dict[str, Callable[[Path, int, random.Random], CaseResult]] = {
    "chat": run_chat_case, "replay": run_replay_case, "rekey": run_rekey_case, "inputs": run_inputs_case,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=30, help="kills per case")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--cases", default=",".join(CASES))
    args = parser.parse_args(argv)
    report: dict = {"kills_per_case": args.kills, "seed": args.seed, "cases": {}}
    with tempfile.TemporaryDirectory(prefix="mfs-fault-matrix-") as scratch:
        Path(scratch).chmod(0o755)  # the permission inputs run as another account, which must reach its folder
        for name in args.cases.split(","):
            started = time.monotonic()
            outcome = CASES[name](Path(scratch), args.kills, random.Random(f"{args.seed}-{name}"))
            outcome.seconds = round(time.monotonic() - started, 1)
            report["cases"][name] = outcome.__dict__
    kills = [case for name, case in report["cases"].items() if name != "inputs"]
    report["kills_total"] = sum(case["kills"] for case in kills)
    report["kills_survived"] = sum(case["survived"] for case in kills)
    inputs = report["cases"].get("inputs", {"kills": 0, "survived": 0})
    report["bad_inputs_total"], report["bad_inputs_handled_plainly"] = inputs["kills"], inputs["survived"]
    print(json.dumps(report, ensure_ascii=False))
    complete = report["kills_survived"] == report["kills_total"] and inputs["survived"] == inputs["kills"]
    return 0 if complete else 1


if __name__ == "__main__":
    sys.exit(main())
