"""Issue 46: model files and their chat templates are someone else's — bounded, plain, nothing lost.

Real templates (tests/data/chat_templates, 30 published by their models' authors) must render as
llama-cpp-python renders them; hostile ones must be refused in plain words, in bounded time and
memory, measured in a process of their own so the figures are the template's alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from llama_cpp.llama_chat_format import Jinja2ChatFormatter

from mfs_desktop.runtime.chat_template import ChatTemplate, TemplateFailed, sample_conversation
from mfs_desktop.runtime.gguf_header import GgufUnreadable, read_gguf_header
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.runtime.model_info import read_model_info
from mfs_desktop.services.models.library import HeaderCache, discover
from mfs_desktop.services.unlock import DataDir
from tests.conftest import REPO, run_cli
from tests.gguf_files import INT32, STRING, UINT32, gguf_bytes, small_model, template_copy

REAL_TEMPLATES = sorted((REPO / "tests/data/chat_templates").glob("*.jinja"))
SECONDS, MEGABYTES = 10.0, 500  # the bound for every hostile input

HOSTILE_TEMPLATES = {
    "raises": "{{ raise_exception('Only user and assistant roles are supported!') }}",
    "does not parse": "{% for m in messages %}{{ m['content'] }",
    "sandbox escape": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "loop without output": "{% set x = range(3000)|list %}{% for a in x %}{% for b in x %}{% for c in x %}"
                           "{% endfor %}{% endfor %}{% endfor %}",
    "huge repeat": "{{ 'x' * 300000000 }}",
    "huge width": "{{ 'x'|center(1000000000) }}",
    "huge power": "{{ 2 ** 100000000 }}",
    "doubling with ~": "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}"
                       "{% endfor %}{{ ns.s }}",
    "doubling with join": "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = [ns.s, ns.s]|join %}"
                          "{% endfor %}{{ ns.s }}",
    "endless output": "{% for a in range(100000) %}{% for b in range(100000) %}xxxxxxxx{% endfor %}{% endfor %}",
    "recursion": "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
}


def _in_child(code: str) -> dict:
    """Run `code` (which sets `result`) in a fresh interpreter; its answer with the time and peak memory
    (VmHWM: unlike ru_maxrss it starts afresh at exec, without the forking test process's own peak)."""
    wrapper = ("import json, re, time\nstarted = time.monotonic()\n" + code +
               "\nresult['seconds'] = time.monotonic() - started"
               "\npeak = re.search(r'VmHWM:\\s+(\\d+) kB', open('/proc/self/status').read())"
               "\nresult['megabytes'] = int(peak.group(1)) / 1024"
               "\nprint(json.dumps(result))")
    done = subprocess.run([sys.executable, "-c", wrapper], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", sorted(HOSTILE_TEMPLATES))
def test_a_hostile_template_is_refused_plainly_in_bounded_time_and_memory(name: str) -> None:
    """Rendered in-process as every turn renders it: a plain TemplateFailed, never a traceback or a hang."""
    answer = _in_child(
        "from mfs_desktop.runtime.chat_template import ChatTemplate, TemplateFailed, sample_conversation\n"
        f"source = {HOSTILE_TEMPLATES[name]!r}\nresult = {{}}\n"
        "try:\n    ChatTemplate(source, bos_token='<s>', eos_token='</s>').render(sample_conversation())\n"
        "    result['failure'] = None\n"
        "except TemplateFailed as reason:\n    result['failure'] = str(reason)\n")
    assert answer["failure"] and answer["failure"].startswith("the template "), answer
    assert answer["seconds"] < SECONDS / 2 and answer["megabytes"] < MEGABYTES, answer


@pytest.mark.parametrize("path", REAL_TEMPLATES, ids=lambda p: p.stem)
def test_real_templates_render_as_llama_cpp_renders_them(path: Path) -> None:
    """The same text as llama-cpp-python's formatter wherever it renders; where it refuses the system
    role (Gemma 2, Mistral v0.1) the system text is folded into the first user message instead."""
    source = path.read_text(encoding="utf-8")
    messages = sample_conversation()
    try:
        theirs: str | None = Jinja2ChatFormatter(source, eos_token="</s>", bos_token="<s>")(messages=messages).prompt
    except Exception:  # noqa: BLE001 — whatever the library raises, ours must answer plainly
        theirs = None
    try:
        template = ChatTemplate(source, bos_token="<s>", eos_token="</s>")
        ours: str | None = template.render(messages)
    except TemplateFailed as reason:
        assert theirs is None, f"llama-cpp-python renders it, ours refused: {reason}"
        return
    if theirs is not None:
        assert ours == theirs
    else:
        assert not template.system_role and messages[0]["content"] in ours and messages[1]["content"] in ours


def test_the_bundled_template_renders_as_llama_cpp_renders_it() -> None:
    source = read_gguf_header(default_model_path()).metadata["tokenizer.chat_template"]
    conversation = [*sample_conversation(), {"role": "assistant", "content": "红色、绿色、蓝色。"},
                    {"role": "user", "content": "Und auf Deutsch?"}]
    theirs = Jinja2ChatFormatter(source, eos_token="</s>", bos_token="<s>")(messages=conversation).prompt
    assert ChatTemplate(source, bos_token="<s>", eos_token="</s>").render(conversation) == theirs


def test_a_model_with_a_failing_template_is_refused_when_chosen_and_a_family_stands_in(tmp_path: Path) -> None:
    """`models use`: exit 17 naming the model and the family to use; nothing saved; `--template` takes it."""
    data = tmp_path / "data"
    bad = small_model(tmp_path / "models" / "strict\x1b[31m.gguf",
                      "<|im_start|>{{ raise_exception('System role not supported, nor any other') }}")
    before = run_cli("models", "list", "--json", data_dir=data)
    refused = run_cli("models", "use", str(bad), data_dir=data)
    assert refused.returncode == 17, refused.stderr
    line = refused.stderr.strip()
    assert "strict␛[31m.gguf" in line and "\x1b" not in line, "a file name's escapes are shown, not obeyed"
    assert "--template chatml" in line and "internal error" not in line
    assert run_cli("models", "list", "--json", data_dir=data).stdout == before.stdout
    taken = run_cli("models", "use", str(bad), "--template", "chatml", data_dir=data)
    assert taken.returncode == 0, taken.stderr
    unknown = run_cli("models", "use", str(bad), "--template", "nonsense", data_dir=data)
    assert unknown.returncode == 10 and "chatml" in unknown.stderr


@pytest.mark.parametrize("template", [HOSTILE_TEMPLATES["loop without output"], HOSTILE_TEMPLATES["huge repeat"],
                                      HOSTILE_TEMPLATES["does not parse"]])
def test_models_use_refuses_a_hostile_template_within_the_bound(tmp_path: Path, template: str) -> None:
    started = time.monotonic()
    refused = run_cli("models", "use", str(small_model(tmp_path / "m.gguf", template)), data_dir=tmp_path / "d")
    assert refused.returncode == 17 and "cannot be used" in refused.stderr, refused.stderr
    assert time.monotonic() - started < SECONDS


def test_a_template_that_fails_mid_conversation_is_a_plain_fault_and_the_message_is_kept(tmp_path: Path) -> None:
    """A template that passes the trial but refuses a later message: exit 17, never 70; the user's
    message is stored; with a family's template the same conversation goes on."""
    own = ("{% for m in messages %}{% if 'boom' in m['content'] %}{{ raise_exception('unexpected word') }}"
           "{% endif %}{{ '<|im_start|>' + m['role'] + '\n' + m['content'] + '<|im_end|>\n' }}{% endfor %}"
           "{{ '<|im_start|>assistant\n' }}")
    model, data = template_copy(tmp_path / "copy.gguf", own), tmp_path / "data"
    assert run_cli("models", "use", str(model), "--window", "2048", data_dir=data).returncode == 0
    failed = run_cli("chat", "--max-tokens", "8", "boom goes the question", data_dir=data)
    assert failed.returncode == 17 and "unexpected word" in failed.stderr, failed.stderr
    assert "internal error" not in failed.stderr
    assert run_cli("export", "--all", "--format", "json", "--out", str(tmp_path / "out"), data_dir=data).returncode == 0
    (exported,) = (tmp_path / "out").iterdir()
    conversation = json.loads(exported.read_text())
    assert [m["text"] for m in conversation["messages"]] == ["boom goes the question"]
    assert run_cli("models", "use", str(model), "--template", "chatml", data_dir=data).returncode == 0
    answered = run_cli("chat", "--conversation", conversation["conversation"]["id"], "--max-tokens", "8", "--json",
                       "boom again", data_dir=data)
    assert answered.returncode == 0, answered.stderr
    assert json.loads(answered.stdout)["answer"]


# GGUF headers ---------------------------------------------------------------------------------


def _header_in_child(path: Path) -> dict:
    return _in_child("from pathlib import Path\nfrom mfs_desktop.runtime.model_info import read_model_info\n"
                     f"result = {{'problem': read_model_info(Path({str(path)!r})).problem}}")


def test_millions_of_metadata_entries_are_refused_at_once(tmp_path: Path) -> None:
    """The audit's 96 MB file with 4.2 M entries took 10.6 s and 558 MB to list."""
    entry = b"\x01\x00\x00\x00\x00\x00\x00\x00k" + b"\x00\x00\x00\x00" + b"\x07"  # key "k", UINT8 7
    count = 4_200_000
    path = tmp_path / "entries.gguf"
    path.write_bytes(b"GGUF" + (3).to_bytes(4, "little") + (0).to_bytes(8, "little") +
                     count.to_bytes(8, "little") + entry * count)
    answer = _header_in_child(path)
    assert "claims 4,200,000 entries" in answer["problem"]
    assert answer["seconds"] < 1 and answer["megabytes"] < 200, answer


def test_a_fifo_named_gguf_does_not_hang_the_model_list(tmp_path: Path, home: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    os.mkfifo(folder / "pipe.gguf")
    small_model(folder / "fine.gguf")
    started = time.monotonic()
    found = {Path(m.info.path).name: m.info.problem
             for m in discover(DataDir(tmp_path / "data"), [folder], HeaderCache()) if m.source == "folder"}
    assert time.monotonic() - started < 5
    assert "not a regular file" in found["pipe.gguf"] and not found["fine.gguf"]
    refused = run_cli("models", "use", str(folder / "pipe.gguf"), data_dir=tmp_path / "data")
    assert refused.returncode in (9, 10) and "internal error" not in refused.stderr


@pytest.mark.parametrize(("name", "metadata", "tensors", "problem"), [
    ("header only", [("general.architecture", STRING, "llama"), ("llama.context_length", UINT32, 2048)], 0,
     "holds no weights"),
    ("context -1", [("general.architecture", STRING, "llama"), ("llama.context_length", INT32, -1)], 1,
     "impossible context length (-1)"),
])
def test_headers_that_cannot_be_a_usable_model_are_unusable(tmp_path: Path, name: str, metadata, tensors: int,
                                                            problem: str) -> None:
    path = tmp_path / "model.gguf"
    path.write_bytes(gguf_bytes(metadata, tensors=tensors))
    assert problem in (read_model_info(path).problem or "")
    refused = run_cli("models", "use", str(path), data_dir=tmp_path / "data")
    assert refused.returncode == 10 and problem in refused.stderr


_BUNDLED_HEAD = default_model_path().read_bytes()[:2_000_000]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.integers(0, 1_999_999), st.binary(min_size=1, max_size=8)), max_size=6),
       cut=st.integers(24, 2_000_000))
def test_a_damaged_header_is_read_in_bounded_time_or_refused(tmp_path: Path, changes, cut: int) -> None:
    """Random bytes changed in the bundled model's header (and the file cut anywhere): an answer or a
    plain reason within a second, never an exception of another kind."""
    data = bytearray(_BUNDLED_HEAD)
    for at, raw in changes:
        data[at:at + len(raw)] = raw
    path = tmp_path / "fuzzed.gguf"
    path.write_bytes(bytes(data[:cut]))
    tracemalloc.start()
    started = time.monotonic()
    try:
        read_gguf_header(path)
    except GgufUnreadable:
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert time.monotonic() - started < 1.0 and peak < 32 << 20


_PIECES = st.sampled_from([
    "{% for m in messages %}", "{% endfor %}", "{{ m['content'] }}", "{{ m.role }}", "{% if loop.first %}",
    "{% endif %}", "{% set ns = namespace(s='ab') %}", "{% set ns.s = ns.s ~ ns.s %}", "{{ ns.s }}",
    "{% for i in range(100000) %}", "{{ 'x' * 9999999 }}", "{{ raise_exception('no') }}", "{{ bos_token }}",
    "{{ messages|tojson }}", "{{ (messages|length) ** 99999 }}", "{{ ''.join(['a'] * 1000) }}", "{%", "}}",
    "{{ m['content']|center(99999999) }}", "{% macro f(x) %}{{ f(x) }}{% endmacro %}{{ f(1) }}",
    "{{ strftime_now('%Y') }}", "{{ messages[0]['content'][::-1] }}", "{{ undefined_name.attr }}",
])


@settings(max_examples=80, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=12))
def test_any_template_renders_or_is_refused_plainly_within_the_bound(pieces: list[str]) -> None:
    """Templates stitched from the shapes real and hostile ones use: text or TemplateFailed, never another
    exception, never past the render limit (with room for the trial render of the folded system role)."""
    tracemalloc.start()
    started = time.monotonic()
    try:
        ChatTemplate("".join(pieces), bos_token="<s>", eos_token="</s>").render(sample_conversation())
    except TemplateFailed:
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # Two steps of growth past the output limit at most (a value is checked once it exists), at 4 bytes a
    # character where a value holds one wide character.
    assert time.monotonic() - started < 3 * 2.0 + 1 and peak < 64 << 20
