"""The model list: real GGUF files in each app's folders under a temporary HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import gguf
import pytest

from mfs_desktop.runtime.gguf_header import read_gguf_header
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.runtime.model_info import ModelInfo, read_model_info
from mfs_desktop.services.models.library import CACHE_KEY, HeaderCache, discover, list_models, set_user_folders
from mfs_desktop.services.unlock import DataDir
from mfs_desktop.store.settings import SettingsStore
from tests.conftest import run_cli
from tests.model_layouts import foreign_architecture_copy, lay_out_apps, place


def _by_source(models) -> dict[str, list]:
    found: dict[str, list] = {}
    for model in models:
        found.setdefault(model.source, []).append(model)
    return found


def test_every_apps_folder_is_found_in_a_temporary_home(home: Path, tmp_path: Path) -> None:
    places = lay_out_apps(home)
    models = discover(DataDir(tmp_path / "data"), [], HeaderCache())
    found = _by_source(models)
    assert set(found) == {"bundled", "lmstudio", "gpt4all", "jan", "huggingface", "ollama"}
    paths = {model.info.path for model in models}
    assert {str(path) for path in places.values()} <= paths
    assert {m.label for m in found["lmstudio"]} == {"HuggingFaceTB/SmolLM2-GGUF/smol-q4.gguf", "old/repo/smol-old.gguf"}
    assert [m.label for m in found["huggingface"]] == [
        "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF/smollm2-135m-instruct-q4_1.gguf"]
    assert [m.label for m in found["ollama"]] == ["smollm2:135m"]
    assert len(found["jan"]) == 2 and len(found["gpt4all"]) == 1
    assert all(model.info.usable for model in models), [m.info.problem for m in models]


def test_the_bundled_files_metadata_is_read_right() -> None:
    info = read_model_info(default_model_path())
    assert (info.architecture, info.context_length, info.quantization) == ("llama", 8192, "Q4_1")
    assert info.chat_template and info.layers == 30 and info.vocabulary == 49152
    assert 130_000_000 < info.parameters < 140_000_000  # SmolLM2-135M
    assert info.kv_width == 3 * (64 + 64)  # 3 KV heads of 576 / 9 = 64 dimensions, keys and values


def test_the_header_walk_agrees_with_the_gguf_package() -> None:
    path = default_model_path()
    ours = read_gguf_header(path)
    reference = gguf.GGUFReader(path)
    for key, field in reference.fields.items():
        if key.startswith("GGUF."):
            continue
        kind = field.types[0]
        if kind == gguf.GGUFValueType.ARRAY:
            assert ours.metadata[key] == len(field.data), key
        elif kind == gguf.GGUFValueType.FLOAT32:
            assert ours.metadata[key] == pytest.approx(field.contents()), key
        else:
            assert ours.metadata[key] == field.contents(), key
    assert ours.tensor_count == len(reference.tensors)
    assert ours.parameters == sum(int(tensor.n_elements) for tensor in reference.tensors)
    assert ours.data_end == max(int(t.data_offset) + int(t.n_bytes) for t in reference.tensors)


def test_broken_and_foreign_files_are_listed_with_their_reason(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    model = default_model_path().read_bytes()
    (folder).mkdir()
    (folder / "cut.gguf").write_bytes(model[: len(model) // 2])
    (folder / "header-cut.gguf").write_bytes(model[:100_000])
    damaged = bytearray(model[:1_000_000])
    damaged[16:24] = (2**40).to_bytes(8, "little")  # the key/value count
    (folder / "damaged.gguf").write_bytes(bytes(damaged))
    (folder / "notes.gguf").write_text("these are my notes, not a model")
    (folder / "empty.gguf").write_bytes(b"")
    foreign_architecture_copy(folder / "foreign.gguf")
    place(default_model_path(), folder / "mmproj-smol-f16.gguf")
    place(default_model_path(), folder / "big-00002-of-00003.gguf")
    problems = {Path(m.info.path).name: m.info.problem
                for m in discover(DataDir(tmp_path / "data"), [folder], HeaderCache()) if m.source == "folder"}
    assert problems["cut.gguf"].startswith("truncated: 49,181,216 bytes of its weights are missing")
    assert "truncated" in problems["header-cut.gguf"]
    assert "damaged" in problems["damaged.gguf"]
    assert "not a GGUF file" in problems["notes.gguf"] and "too short" in problems["empty.gguf"]
    assert "architecture 'zq9xw' is not supported by this llama.cpp" in problems["foreign.gguf"]
    assert "not a chat model" in problems["mmproj-smol-f16.gguf"]
    assert "big-00002-of-00003.gguf" not in problems  # llama.cpp opens a split set from part 1


def test_the_header_cache_reads_each_file_once_until_it_changes(home: Path, tmp_path: Path, session) -> None:
    places = lay_out_apps(home)
    first = list_models(session.database, session.data_dir)
    again = HeaderCache(SettingsStore(session.database).get(CACHE_KEY))
    second = discover(session.data_dir, [], again)
    assert again.reads == 0 and [m.info for m in second] == [m.info for m in first]
    gpt4all = places["gpt4all"]
    gpt4all.unlink()
    gpt4all.write_bytes(b"GGUF" + b"\0" * 40)
    third = discover(session.data_dir, [], again)
    assert again.reads == 1
    assert "GGUF version 0 is not supported" in next(m.info.problem for m in third if m.info.path == str(gpt4all))


def test_a_users_own_folder_joins_the_list(home: Path, tmp_path: Path, session) -> None:
    mine = tmp_path / "my models"
    place(default_model_path(), mine / "deep" / "er" / "mine.gguf")
    set_user_folders(session.database, [mine])
    models = list_models(session.database, session.data_dir)
    assert [m.label for m in models if m.source == "folder"] == ["deep/er/mine.gguf"]


def test_models_list_json_names_path_source_size_architecture_context_quantization(home: Path, tmp_path: Path) -> None:
    lay_out_apps(home)
    result = run_cli("models", "list", "--json", data_dir=tmp_path / "data", HOME=str(home))
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert {row["source"] for row in rows} == {"bundled", "lmstudio", "gpt4all", "jan", "huggingface", "ollama"}
    for row in rows:
        assert (row["architecture"], row["context_length"], row["quantization"]) == ("llama", 8192, "Q4_1")
        assert row["size"] == default_model_path().stat().st_size and Path(row["path"]).is_file()
        assert row["fits"] and row["window"] == 8192


def test_fitting_window_follows_the_memory_there_is() -> None:
    info = ModelInfo(path="x", size=4_000_000_000, context_length=32_768, layers=28, kv_width=1024, vocabulary=150_000)
    per_token = 28 * 1024 * 2
    assert info.fitting_window(10**12) == 32_768
    assert info.fitting_window(info.memory_bytes(2048) - 1) is None
    budget = info.memory_bytes(0) + per_token * 10_000
    assert info.fitting_window(budget) == 9216  # 10,000 tokens fit; steps of 1,024
    assert info.memory_bytes(9216) <= budget < info.memory_bytes(10_240)
    assert info.fitting_window(budget, contexts=2) < info.fitting_window(budget)


_RSS_PROBE = """
import sys, llama_cpp
def rss():
    return next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmRSS"))
before = rss()
model = llama_cpp.Llama(sys.argv[1], n_ctx=int(sys.argv[2]), n_batch=512, verbose=False, use_mmap=True)
model.eval(model.tokenize(b"hello " * 300))
print(rss() - before)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads resident memory from /proc")
@pytest.mark.parametrize("window", [2048, 8192])
def test_the_memory_estimate_bounds_what_llama_cpp_really_uses(window: int) -> None:
    path = default_model_path()
    measured = int(subprocess.run([sys.executable, "-c", _RSS_PROBE, str(path), str(window)], capture_output=True,
                                  text=True, check=True, timeout=120, env=os.environ).stdout)
    estimate = read_model_info(path).memory_bytes(window)
    assert measured <= estimate <= 1.5 * measured, (measured, estimate)


def test_a_conversation_runs_on_its_own_model_and_falls_back_to_the_default(home: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    other = place(default_model_path(), tmp_path / "models" / "other-model.gguf")
    made = run_cli("chat", "--provider", "fake", "--json", "hello", data_dir=data)
    conversation = json.loads(made.stdout)["conversation_id"]
    used = run_cli("models", "use", str(other), "--conversation", conversation, "--window", "4096", data_dir=data)
    assert used.returncode == 0 and "in conversation" in used.stdout and "window 4,096" in used.stdout
    own = run_cli("-v", "chat", "--conversation", conversation, "--max-tokens", "4", "again", data_dir=data)
    assert own.returncode == 0, own.stderr
    assert f"conversation {conversation} on other-model.gguf, window 4096" in own.stderr
    fresh = run_cli("-v", "chat", "--new", "--max-tokens", "4", "hi", data_dir=data)
    assert "on SmolLM2-135M-Instruct.Q4_1.gguf, window 8192" in fresh.stderr
    back = run_cli("models", "use", "default", "--conversation", conversation, data_dir=data)
    assert back.returncode == 0
    again = run_cli("-v", "chat", "--conversation", conversation, "--max-tokens", "4", "and now", data_dir=data)
    assert "on SmolLM2-135M-Instruct.Q4_1.gguf, window 8192" in again.stderr
    broken = tmp_path / "models" / "broken.gguf"
    broken.write_bytes(default_model_path().read_bytes()[:4096])
    refused = run_cli("models", "use", str(broken), data_dir=data)
    assert refused.returncode == 10 and "cannot be used: truncated" in refused.stderr


@pytest.mark.parametrize("platform, expected", [
    ("darwin", ["Library/Application Support/nomic.ai/GPT4All", "Library/Application Support/Jan/data/models"]),
    ("win32", ["AppData/Roaming/nomic.ai/GPT4All", "AppData/Local/Jan/data/llamacpp/models"]),
    ("linux", [".local/share/nomic.ai/GPT4All", ".local/share/Jan/data/llamacpp/models"]),
])
def test_each_platform_has_its_folders(home: Path, monkeypatch: pytest.MonkeyPatch, platform: str,
                                       expected: list[str]) -> None:
    from mfs_desktop.runtime import model_sources

    monkeypatch.setattr(model_sources.sys, "platform", platform)
    monkeypatch.setenv("APPDATA", str(home / "AppData/Roaming"))
    monkeypatch.setenv("LOCALAPPDATA", str(home / "AppData/Local"))
    folders = {str(p.relative_to(home)) for p in model_sources.gpt4all_folders() + model_sources.jan_folders()}
    assert set(expected) <= folders
    assert home / ".lmstudio/models" in model_sources.lmstudio_folders()
