#!/usr/bin/env python3
"""Model library benchmark, printed as JSON.

- discovery: 200 real GGUF files (hard links of the bundled model, so each path is a file of
  its own to the list) spread over the LM Studio, GPT4All, Jan, Hugging Face cache, Ollama and
  own-folder layouts in a temporary HOME; the list read cold (no header cache), then warm.
  Goal: under 1 s for 200 files. For scale, one file through `gguf.GGUFReader`.
- resume: the bundled file (98 MB) from a loopback server, once whole, once cancelled half way
  and resumed; overhead = (first half + resume) ÷ whole − 1, the resume's re-hash of the bytes
  already on disk included.

Usage: .venv/bin/python scripts/bench_models.py [--files 200] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mfs_desktop.runtime.download import Cancelled, DownloadSource, download, part_paths  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.services.models.library import HeaderCache, discover  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402
from tests.file_servers import FileServer, ServedFile  # noqa: E402
from tests.model_layouts import HOME_VARIABLES, lay_out_apps, place  # noqa: E402

FOLDERS = (".lmstudio/models/pub{n}/repo{n}", ".local/share/nomic.ai/GPT4All", "jan/models/m{n}",
           ".local/share/Jan/data/llamacpp/models/m{n}", "mine/deep/m{n}")


def build_home(home: Path, count: int) -> Path:
    """`count` model files in all: one per app layout (HF cache and Ollama included), the rest
    spread round-robin over the folder layouts; returns the own folder."""
    lay_out_apps(home)
    model = default_model_path()
    for n in range(count - 7):  # lay_out_apps placed 7
        folder = FOLDERS[n % len(FOLDERS)].format(n=n)
        place(model, home / folder / f"model-{n}.gguf")
    return home / "mine"


def time_discovery(home: Path, mine: Path, data: DataDir, runs: int) -> dict:
    cold, warm, found = [], [], 0
    for _ in range(runs):
        cache = HeaderCache()
        began = time.perf_counter()
        found = len(discover(data, [mine], cache))
        cold.append(time.perf_counter() - began)
        began = time.perf_counter()
        discover(data, [mine], cache)
        warm.append(time.perf_counter() - began)
    import gguf

    began = time.perf_counter()
    gguf.GGUFReader(default_model_path())
    reader = time.perf_counter() - began
    return {"files": found, "cold_s": round(statistics.median(cold), 3), "warm_s": round(statistics.median(warm), 4),
            "cold_per_file_ms": round(1000 * statistics.median(cold) / found, 2),
            "gguf_reader_one_file_s": round(reader, 3), "goal_s": 1.0}


def time_resume(folder: Path, runs: int) -> dict:
    data = default_model_path().read_bytes()
    server = FileServer({"/m.gguf": ServedFile(data)})
    source = DownloadSource(server.url("/m.gguf"), "m.gguf", size=len(data))
    whole, split = [], []
    try:
        for run in range(runs):
            target = folder / f"whole-{run}.gguf"
            began = time.perf_counter()
            download(source, target)
            whole.append(time.perf_counter() - began)
            target = folder / f"split-{run}.gguf"
            part = part_paths(target)[0]
            began = time.perf_counter()
            try:
                download(source, target, cancelled=lambda part=part: part.exists()
                         and part.stat().st_size >= len(data) // 2)
            except Cancelled:
                pass
            result = download(source, target)
            split.append(time.perf_counter() - began)
            assert result.resumed_from >= len(data) // 2 and result.size == len(data)
            for leftover in folder.iterdir():
                leftover.unlink()
    finally:
        server.stop()
    median_whole, median_split = statistics.median(whole), statistics.median(split)
    return {"bytes": len(data), "whole_s": round(median_whole, 3), "cancelled_and_resumed_s": round(median_split, 3),
            "overhead": round(median_split / median_whole - 1, 3),
            "throughput_mb_s": round(len(data) / median_whole / 1e6, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=default_model_path().parent.parent.parent) as scratch:
        # beside the venv, so hard links work (one file system)
        home = Path(scratch) / "home"
        os.environ["HOME"] = str(home)
        for name in HOME_VARIABLES:
            os.environ.pop(name, None)
        mine = build_home(home, args.files)
        data = DataDir(Path(scratch) / "data")
        report = {"discovery": time_discovery(home, mine, data, args.runs)}
        downloads = Path(scratch) / "downloads"
        downloads.mkdir()
        report["resume"] = time_resume(downloads, args.runs)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
