"""Issue 27 item 3 in the suite: a few SIGKILLs per case of scripts/fault_matrix.py (the
script's default is 30 per case; docs/faults.md has its figures) and every bad input of its
list. Every kill must be survived and every bad input answered with one plain line."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO


def test_random_sigkills_are_survived_and_bad_inputs_answered_plainly() -> None:
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "fault_matrix.py"), "--kills", "4", "--seed", "5"],
                         capture_output=True, text=True, timeout=600, cwd=REPO)
    report = json.loads(run.stdout)
    assert report["kills_total"] == 12
    assert report["kills_survived"] == report["kills_total"], report
    assert report["bad_inputs_total"] >= 25
    assert report["bad_inputs_handled_plainly"] == report["bad_inputs_total"], report["cases"]["inputs"]["failures"]
    assert run.returncode == 0, run.stderr
    for name, case in report["cases"].items():
        if name == "inputs":
            continue
        assert case["finished_first"] < case["kills"], f"no {name} kill landed mid-run: the test proved nothing"
