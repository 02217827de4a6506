#!/usr/bin/env python3
"""Grab what a person sees, offscreen, to PNG (issue 5, item 9):

- main-window.png: a conversation with the bundled model, mid-conversation, with CJK text;
- context-layers.png: a LoCoMo conversation replayed through the context engine at a small
  window, so several compactions happened, then one of its questions asked with the bundled
  model, with the Context layers tab (one message pinned, the messages recalled for the
  question) and a segment opened;
- ledger.png: a LoCoMo conversation answered turn by turn (scripted answers), so the chart has
  every turn's payload;
- tool-trajectory.png: a conversation whose (scripted) assistant called tools, on that tab;
- thinking.png: a thinking model's answers, the thought collapsed above one and opened above the other;
- tools.png and tool-approval.png: Settings › Tools with two MCP servers, and the question asked
  before a tool call runs;
- settings.png and unlock-dialog.png.

With `--language zh_CN` the interface is Chinese and every file gets a `-zh_CN` suffix
(the questions to the bundled model are Chinese too).

Usage: .venv/bin/python scripts/screenshot.py [OUT_DIR] [--language zh_CN]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from offscreen import settle, wait_for  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from mfs_desktop.compaction.compactor import ExtractiveCompactor  # noqa: E402
from mfs_desktop.runtime.embedded import EmbeddedModel  # noqa: E402
from mfs_desktop.runtime.estimate import estimate_text_tokens  # noqa: E402
from mfs_desktop.runtime.fake import FakeModel, Step  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.services.conversation.chat import ChatService  # noqa: E402
from mfs_desktop.services.conversation.pins import change_pin  # noqa: E402
from mfs_desktop.services.conversation.replay import locomo_sessions, replay_locomo  # noqa: E402
from mfs_desktop.services.models.choice import ModelChoice  # noqa: E402
from mfs_desktop.services.session import Session, open_session  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402
from mfs_desktop.ui.dialogs.unlock import UnlockDialog  # noqa: E402
from mfs_desktop.ui.i18n import install_language, tr  # noqa: E402
from mfs_desktop.ui.settings.dialog import SettingsDialog  # noqa: E402
from mfs_desktop.ui.window.main_window import MainWindow  # noqa: E402

LOCOMO = REPO.parent / "shared" / "data" / "locomo10"
WINDOW = 4096  # small enough that a LoCoMo conversation compacts several times


def replayed(session: Session, name: str) -> str:
    """A real long conversation, folded by the context engine exactly as in `mfs-desktop replay`."""
    tokenizer = EmbeddedModel(default_model_path(), n_ctx=WINDOW, tokenizer_only=True)
    service = ChatService(session, tokenizer, provider="replay", window=WINDOW,
                          compactor_factory=lambda: ExtractiveCompactor(estimate_text_tokens))
    try:
        return replay_locomo(service, LOCOMO / name, tokenizer)["conversation_id"]
    finally:
        service.close()


def recalling_question(session: Session, conversation_id: str, name: str) -> str:
    """The first of the file's questions whose request recall would answer from covered turns."""
    document = json.loads((LOCOMO / name).read_text(encoding="utf-8"))
    tokenizer = EmbeddedModel(default_model_path(), n_ctx=WINDOW, tokenizer_only=True)
    service = ChatService(session, tokenizer, provider="replay", window=WINDOW)
    try:
        return next(q["question"] for q in document["qa"] if q.get("category") == 4
                    and service.assembled(conversation_id, extra_input=q["question"]).recall.hits)
    finally:
        service.close()


def scripted_chat(session: Session, name: str, turns: int) -> str:
    """A conversation answered turn by turn through the chat service, so the ledger has answered
    turns to chart: the user's lines are one LoCoMo speaker's, the scripted answers the other's."""
    title, sessions = locomo_sessions(LOCOMO / name)
    lines = [(role, text) for _, utterances in sessions for role, text in utterances]
    pairs, question = [], None
    for role, text in lines:
        if role == "user" and question is None:
            question = text
        elif role == "assistant" and question is not None:
            pairs.append((question, text))
            question = None
    pairs = pairs[:turns]
    service = ChatService(session, FakeModel([Step("text", answer) for _, answer in pairs]), provider="fake",
                          window=WINDOW)
    conversation_id = session.transcript.create_conversation(f"{title} (scripted answers)").id
    try:
        for question, _ in pairs:
            service.send(conversation_id, question)
            service.precompactor.wait(conversation_id)
    finally:
        service.close()
    return conversation_id


def with_tool_calls(session: Session) -> str:
    """What the trajectory tab shows comes from the store; the calls here are scripted."""
    script = [
        Step("tool_call", tool_name="record_value", arguments=json.dumps({"key": "项目路径", "value": "/srv/app"})),
        Step("tool_call", tool_name="record_value", arguments=json.dumps({"key": "port", "value": "8443"})),
        Step("text", text="记住了：项目在 /srv/app，端口 8443。"),
        Step("tool_call", tool_name="recall_history", arguments=json.dumps({"uid_start": 1, "uid_end": 2})),
        Step(
            "tool_call",
            tool_name="read_document",
            arguments=json.dumps({"snapshot": "0000", "offset": 0, "length": 10}),
        ),
        Step("text", text="Your project lives in /srv/app and listens on port 8443."),
    ]
    service = ChatService(session, FakeModel(script), provider="fake", window=WINDOW)
    conversation_id = session.transcript.create_conversation("部署笔记 · deployment notes").id
    try:
        service.send(conversation_id, "请记住：项目路径是 /srv/app，端口 8443。")
        service.send(conversation_id, "Where did I say the project lives?")
    finally:
        service.close()
    return conversation_id


DARK_ANSWER = ("可以用 Python 计算：\n\n```python\ndef area(r: float) -> float:\n    \"\"\"圆的面积\"\"\"\n"
               "    return 3.14159 * r ** 2\n\nprint(area(2))  # 12.56636\n```\n\n"
               "或者在终端里找大文件：\n\n```sh\nfind ~/.local/share -name '*.db' -size +10M\n```\n")


def grab_dark_code(app: QApplication, window: MainWindow, session: Session, target: str) -> None:
    """The dark theme, a Chinese conversation, an answer with coloured code and its copy links."""
    from mfs_desktop.store.models import MessageDraft
    from mfs_desktop.ui.look import apply_look

    conversation = session.transcript.create_conversation("圆的面积和大文件").id
    session.transcript.append(conversation, [MessageDraft("user", "怎么计算圆的面积？顺便告诉我怎么找大文件。"),
                                             MessageDraft("assistant", DARK_ANSWER)])
    apply_look(app, "dark", 0)
    window.view.rows_delegate.forget_layouts()
    window.refresh_conversations(select=conversation)
    settle(app, 0.8)
    window.grab().save(target)
    apply_look(app, "light", 0)
    window.view.rows_delegate.forget_layouts()


def grab_models_tab(app: QApplication, window: MainWindow, session: Session, target: str, home: Path) -> None:
    """Settings › Models over a home where LM Studio, GPT4All, Jan, the HF cache and Ollama
    each hold a model, and LM Studio an unfinished one."""
    from tests.model_layouts import HOME_VARIABLES, lay_out_apps

    os.environ["HOME"] = str(home)
    for name in HOME_VARIABLES:
        os.environ.pop(name, None)
    lay_out_apps(home)
    half = home / ".lmstudio/models/bartowski/Qwen2.5-7B-Instruct-GGUF/Qwen2.5-7B-Instruct-Q4_K_M.gguf"
    half.parent.mkdir(parents=True)
    half.write_bytes(default_model_path().read_bytes()[:40_000_000])
    settings = SettingsDialog(window, session, window.preferences, None)
    settings.resize(980, 640)
    settings.tabs.setCurrentWidget(settings.models_page)
    settings.show()
    wait_for(app, lambda: settings.models_page.table.rowCount() >= 8)
    settings.models_page.select_path(str(home / ".ollama/models/blobs"))
    settings.models_page.catalogue.selectRow(1)
    settle(app, 0.5)
    settings.grab().save(target)
    settings.close()


QUESTIONS = {
    "en": ("Hello! What can you help me with?", "你好！请用一句话介绍你自己。",
           "Give me three tips for a long train journey."),
    "zh_CN": ("你好！你能帮我做什么？", "请用一句话介绍你自己。", "Give me three tips for a long train journey."),
}


THOUGHTS = {
    "en": ("How long does a 1.5 km walk take at 5 km/h?",
           "<think>Distance 1.5 km, speed 5 km/h. Time = 1.5 / 5 = 0.3 h. 0.3 × 60 = 18 minutes. Check: in 18 "
           "minutes at 5 km/h one covers 5 × 18/60 = 1.5 km. Right.</think>\n\nAbout **18 minutes** "
           "(1.5 km ÷ 5 km/h = 0.3 h)."),
    "zh_CN": ("以 5 公里/小时的速度走 1.5 公里要多久？",
              "<think>距离 1.5 公里，速度 5 公里/小时。时间 = 1.5 / 5 = 0.3 小时，即 0.3 × 60 = 18 分钟。验算：18 分钟"
              "走 5 × 18/60 = 1.5 公里。没错。</think>\n\n大约 **18 分钟**（1.5 公里 ÷ 5 公里/小时 = 0.3 小时）。"),
}


def grab_thinking(app: QApplication, window: MainWindow, session: Session, target: str, language: str) -> None:
    """A thinking model's answer: the thought collapsed above one answer, opened above another."""
    question, answer = THOUGHTS[language]
    model = FakeModel([Step("text", answer, delay=0.03), Step("text", answer, delay=0.03)])
    service = ChatService(session, model, provider="fake", use_tools=False)
    conversation = session.transcript.create_conversation(question[:24]).id
    service.send(conversation, question)
    service.send(conversation, question)
    service.close()
    window.refresh_conversations(select=conversation)
    wait_for(app, lambda: window.current_id == conversation)
    window.view.toggle_thought(next(row.key for row in reversed(window.view.stream.rows) if row.thought))
    settle(app, 0.8)
    window.grab().save(target)


def grab_tools(app: QApplication, window: MainWindow, session: Session, settings_png: str, prompt_png: str) -> None:
    """Settings › Tools with the PyPI time server and a second one, and the question asked
    before a call runs."""
    from mfs_desktop.runtime.mcp_client import McpServer
    from mfs_desktop.services.mcp.servers import ask_tools, save_server
    from mfs_desktop.services.mcp.toolbox import ApprovalRequest
    from mfs_desktop.ui.window.tool_approval import approval_box

    time_server = Path(sys.executable).with_name("mcp-server-time")
    save_server(session, McpServer("time", str(time_server), ("--local-timezone", "Europe/Berlin")))
    save_server(session, McpServer("workbench", sys.executable, (str(REPO / "tests/data/mcp_servers/workbench.py"),)))
    for name in ("time", "workbench"):
        ask_tools(session.database, name)
    settings = SettingsDialog(window, session, window.preferences, None)
    tabs = settings.tabs
    tabs.setCurrentIndex(next(i for i in range(tabs.count()) if tabs.tabText(i) == tr("Tools")))
    settings.show()
    settings.tools_page.table.selectRow(0)
    settle(app, 0.5)
    settings.grab().save(settings_png)
    settings.close()
    box, _ = approval_box(window, ApprovalRequest("time", "convert_time", '{"source_timezone": "Europe/Berlin", '
                                                  '"time": "16:30", "target_timezone": "Asia/Shanghai"}'))
    box.show()
    settle(app, 0.3)
    box.grab().save(prompt_png)
    box.close()


def main() -> None:
    args = sys.argv[1:]
    language = "en"
    if "--language" in args:
        at = args.index("--language")
        language = args[at + 1]
        del args[at:at + 2]
    out = Path(args[0]) if args else REPO / "resources" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication(sys.argv[:1])
    language = install_language(app, language)
    suffix = "" if language == "en" else f"-{language}"

    def png(name: str) -> str:
        return str(out / f"{name}{suffix}.png")

    with tempfile.TemporaryDirectory() as scratch:
        session = open_session(DataDir(Path(scratch)), lambda new: "screenshot", use_keychain=False)
        long_one = replayed(session, "30.json")
        change_pin(session, long_one, 1, True, WINDOW)  # the layers tab lists it, with Unpin
        asked = recalling_question(session, long_one, "30.json")  # asked in the window: recall shows
        answered = scripted_chat(session, "26.json", 120)
        tools_one = with_tool_calls(session)
        window = MainWindow(session, ModelChoice("embedded", window=WINDOW))  # the bundled model
        window.resize(1400, 820)
        window.show()
        wait_for(app, lambda: window.model_ready)
        window.new_conversation()
        wait_for(app, lambda: window.current_id not in (long_one, tools_one, None))
        for question in QUESTIONS[language]:
            window.composer.setPlainText(question)
            window.send_or_stop()
            wait_for(app, lambda: not window.generating)
        settle(app, 1.0)
        window.grab().save(png("main-window"))

        window.refresh_conversations(select=long_one)
        wait_for(app, lambda: window.current_id == long_one)
        window.composer.setPlainText(asked)
        window.send_or_stop()
        wait_for(app, lambda: not window.generating)
        wait_for(app, lambda: window.last_report.get("conversation_id") == long_one
                 and window.layers.segments.topLevelItemCount() > 0 and window.layers.recalled.topLevelItemCount())
        window.show_segment(window.layers.segments.topLevelItem(0).data(0, Qt.ItemDataRole.UserRole))
        wait_for(app, lambda: tr("Original messages") in window.layers.detail.toPlainText())
        # Replayed messages carry LoCoMo's dates and the ledger today's, so the notices follow
        # the last message: show the newest, the recall's.
        last_notice = max(i for i, row in enumerate(window.view.stream.rows) if row.kind == "notice")
        window.view.scrollTo(window.view.stream.index(last_notice), window.view.ScrollHint.PositionAtCenter)
        settle(app, 0.5)
        window.grab().save(png("context-layers"))
        window.refresh_conversations(select=answered)
        window.tabs.setCurrentWidget(window.ledger_tab)
        wait_for(app, lambda: window.ledger_tab.chart.series and window.ledger_tab.table.rowCount() > 0)
        settle(app, 0.5)
        window.grab().save(png("ledger"))

        window.refresh_conversations(select=tools_one)
        window.tabs.setCurrentWidget(window.trajectory_tab)
        wait_for(app, lambda: window.trajectory_tab.table.rowCount() == 4)
        window.trajectory_tab.table.selectRow(0)
        window.trajectory_tab._expand(0, 8)
        settle(app, 0.5)
        window.grab().save(png("tool-trajectory"))

        settings = SettingsDialog(window, session, window.preferences, tools_one)
        tabs = settings.tabs
        tabs.setCurrentIndex(next(i for i in range(tabs.count()) if tabs.tabText(i) == tr("Memory")))
        settings.show()
        settle(app, 0.5)
        settings.grab().save(png("settings"))
        settings.close()
        grab_models_tab(app, window, session, png("models"), Path(scratch) / "home")
        grab_dark_code(app, window, session, png("dark-code"))
        grab_thinking(app, window, session, png("thinking"), language)
        grab_tools(app, window, session, png("tools"), png("tool-approval"))
        dialog = UnlockDialog(creating=True, location=str(Path.home() / ".local/share/mfs-desktop"))
        dialog.show()
        settle(app, 0.3)
        dialog.grab().save(png("unlock-dialog"))
        window.shutdown()
        session.close()
    print(f"saved to {out}")


if __name__ == "__main__":
    main()
