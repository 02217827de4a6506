"""Settings › Models with real widgets offscreen: the list, Use, a download with progress and cancel."""

from __future__ import annotations

import os
import random

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


import pytest  # noqa: E402

from mfs_desktop.runtime.download import part_paths  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.services.models.library import downloads_folder  # noqa: E402
from mfs_desktop.services.preferences import Preferences  # noqa: E402
from mfs_desktop.ui.settings.dialog import SettingsDialog  # noqa: E402
from tests.file_servers import FileServer, ServedFile  # noqa: E402
from tests.model_layouts import lay_out_apps  # noqa: E402


def _dialog(qtbot, session) -> SettingsDialog:
    dialog = SettingsDialog(None, session, Preferences(), None)
    qtbot.addWidget(dialog)
    return dialog


def _rows(page) -> dict[str, list[str]]:
    table = page.table
    return {table.item(row, 1).text(): [table.item(row, c).text() for c in range(table.columnCount())]
            for row in range(table.rowCount())}


def test_the_models_tab_lists_each_source_and_use_fills_the_model_tab(qtbot, session, home) -> None:
    places = lay_out_apps(home)
    (home / ".lmstudio/models/HuggingFaceTB/SmolLM2-GGUF/half.gguf").write_bytes(
        default_model_path().read_bytes()[:1_000_000])
    dialog = _dialog(qtbot, session)
    page = dialog.models_page
    qtbot.waitUntil(lambda: page.table.rowCount() == 9, timeout=10_000)
    rows = _rows(page)
    assert {"bundled", "LM Studio", "GPT4All", "Jan", "Hugging Face cache", "Ollama"} <= set(rows)
    assert rows["Ollama"][0] == "smollm2:135m" and rows["Ollama"][3] == "Q4_1" and rows["Ollama"][4] == "8,192"
    broken = next(row for row in range(page.table.rowCount()) if page.table.item(row, 0).text().endswith("half.gguf"))
    page.table.selectRow(broken)
    assert "cannot be used: truncated" in page.table.item(broken, 5).text() and not page.use_button.isEnabled()

    page.select_path(str(places["ollama"]))
    assert page.use_button.isEnabled() and not page.remove_button.isEnabled()  # not downloaded by the app
    page.use_selected()
    assert dialog.model_path.text() == str(places["ollama"]) and dialog.window_tokens.value() == 8192
    assert dialog.choice().preferences.model_path == str(places["ollama"])


def test_a_download_shows_progress_lands_in_the_list_and_can_be_removed(qtbot, session, home, monkeypatch) -> None:
    model = default_model_path().read_bytes()
    server = FileServer({"/smol.gguf": ServedFile(model, bytes_per_second=40 << 20)})
    try:
        dialog = _dialog(qtbot, session)
        page = dialog.models_page
        qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=10_000)
        page.source.setText(server.url("/smol.gguf"))
        page.download_chosen()
        qtbot.waitUntil(lambda: "/s" in page.status.text(), timeout=20_000)
        qtbot.waitUntil(lambda: page.status.text().startswith("Downloaded smol.gguf"), timeout=60_000)
        qtbot.waitUntil(lambda: page.table.rowCount() == 2, timeout=10_000)
        assert "downloaded here" in _rows(page)
        target = downloads_folder(session.data_dir) / "127.0.0.1" / "smol.gguf"
        assert target.read_bytes() == model
        page.select_path(str(target))
        assert page.remove_button.isEnabled()
        from PySide6.QtWidgets import QMessageBox

        monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
        page.remove_selected()
        qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=10_000)
        assert not target.exists()
    finally:
        server.stop()


def test_cancel_and_closing_settings_keep_the_part_for_a_resume(qtbot, session, home) -> None:
    payload = b"GGUF" + random.Random(3).randbytes(20 << 20)
    server = FileServer({"/big.gguf": ServedFile(payload, bytes_per_second=4 << 20)})
    try:
        dialog = _dialog(qtbot, session)
        page = dialog.models_page
        page.source.setText(server.url("/big.gguf"))
        page.download_chosen()
        part = part_paths(downloads_folder(session.data_dir) / "127.0.0.1" / "big.gguf")[0]
        qtbot.waitUntil(lambda: part.exists() and part.stat().st_size > 1 << 20, timeout=20_000)
        page.cancel_download()
        qtbot.waitUntil(lambda: "cancelled" in page.status.text(), timeout=10_000)
        assert page.download_button.isEnabled() and part.exists()
        kept = part.stat().st_size
        page.download_chosen()
        qtbot.waitUntil(lambda: part.stat().st_size > kept + (1 << 20), timeout=20_000)
        dialog.reject()  # closing Settings stops the download and keeps what arrived
        assert not page._downloading and part.exists() and part.stat().st_size < len(payload)
        assert server.files["/big.gguf"].requests[1]["range"] == f"bytes={kept}-"
    finally:
        server.stop()


def test_the_window_loads_a_conversations_own_model_and_returns_to_the_default(qtbot, session, tmp_path) -> None:
    from mfs_desktop.services.models.choice import ModelChoice
    from mfs_desktop.store.conversation_models import ConversationModel, set_conversation_model
    from mfs_desktop.ui.window.main_window import MainWindow
    from tests.model_layouts import place

    plain = session.transcript.create_conversation().id
    special = session.transcript.create_conversation().id
    other = place(default_model_path(), tmp_path / "other-model.gguf")
    set_conversation_model(session.database, special, ConversationModel(str(other), 2048))
    window = MainWindow(session, ModelChoice("fake"))
    qtbot.addWidget(window)
    window.refresh_conversations(select=plain)
    qtbot.waitUntil(lambda: window.model_ready and window.current_id == plain, timeout=20_000)
    assert window.model_choice.provider == "fake"
    window.refresh_conversations(select=special)
    qtbot.waitUntil(lambda: window.model_ready and window.usage_label.text().startswith("Model: other-model.gguf"),
                    timeout=60_000)
    assert window.model_choice == ModelChoice("embedded", other, 2048, None)
    window.refresh_conversations(select=plain)
    qtbot.waitUntil(lambda: window.model_ready and window.model_choice.provider == "fake", timeout=60_000)
    window.shutdown()


def test_the_hub_token_is_saved_from_the_models_tab(qtbot, session) -> None:
    from mfs_desktop.services.models.actions import load_hub_token

    page = _dialog(qtbot, session).models_page
    page.save_token("hf_fromthewindow")
    qtbot.waitUntil(lambda: page.status.text() == "Token saved in the database.", timeout=5_000)
    assert load_hub_token(session) == "hf_fromthewindow"
    page.save_token("")
    qtbot.waitUntil(lambda: page.status.text() == "Token removed.", timeout=5_000)
    assert load_hub_token(session) is None


def test_a_chosen_file_is_described_and_a_broken_one_refused_in_the_model_tab(qtbot, session, tmp_path) -> None:
    from mfs_desktop.errors import InvalidInput
    from mfs_desktop.services.preferences import validate

    dialog = _dialog(qtbot, session)
    assert dialog.model_status.text().startswith("✓ the bundled default model: llama Q4_1, 98.4 MB, context 8,192")
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(default_model_path().read_bytes()[:2_000_000])
    dialog.model_path.setText(str(broken))
    assert "cannot be used: truncated" in dialog.model_status.text()
    with pytest.raises(InvalidInput, match="cannot be used: truncated"):
        validate(dialog.choice().preferences)


def test_a_model_whose_template_fails_is_refused_and_a_family_offered(qtbot, session, tmp_path) -> None:
    """Issue 46: Settings › Models tries the template before a model is chosen; the family its tokens
    name is offered, and with it chosen the model is taken."""
    from mfs_desktop.services.models.library import set_user_folders
    from mfs_desktop.services.models.templates import template_family
    from tests.gguf_files import small_model

    folder = tmp_path / "mine"
    bad = small_model(folder / "strict.gguf", "<|im_start|>{{ raise_exception('Conversation roles must alternate') }}")
    set_user_folders(session.database, [folder])
    dialog = _dialog(qtbot, session)
    page = dialog.models_page
    qtbot.waitUntil(lambda: page.table.rowCount() == 2, timeout=10_000)
    page.select_path(str(bad))
    page.use_selected()
    assert "cannot be used" in page.status.text() and "Conversation roles must alternate" in page.status.text()
    assert dialog.model_path.text() != str(bad) and page.template.currentData() == "chatml"
    page.use_selected()
    assert dialog.model_path.text() == str(bad) and template_family(session.database, bad) == "chatml"
