"""The sweep's collect step keeps the runs the stored data already holds when this machine's raw
results lack them (a run added on a fresh machine must not drop the stored eval and train
runs)."""

from __future__ import annotations

import json

from sweep import _keep_stored_runs


def test_stored_runs_survive_an_added_run(tmp_path):
    stored = {"families": {
        "bart": {"class": "BartModel", "shrink": "tiny", "runs": [
            {"mode": "eval", "dtype": "float32", "graphs": 1},
            {"mode": "train", "dtype": "float32", "graphs": 2}]},
        "only_stored": {"class": "X", "runs": [{"mode": "eval", "dtype": "float32", "graphs": 1}]},
    }}
    target = tmp_path / "transformers-1.0.json"
    target.write_text(json.dumps(stored), encoding="utf-8")
    fresh = {"bart": {"class": "BartModel", "shrink": None, "runs": [
        {"mode": "eval", "dtype": "float16", "graphs": 3},
        {"mode": "train", "dtype": "float32", "graphs": 5}]}}
    _keep_stored_runs(target, fresh)
    runs = {(r["mode"], r["dtype"]): r["graphs"] for r in fresh["bart"]["runs"]}
    # the stored eval run kept, the fresh train run wins over the stored one, the new run added
    assert runs == {("eval", "float32"): 1, ("train", "float32"): 5, ("eval", "float16"): 3}
    assert fresh["bart"]["shrink"] == "tiny"
    assert fresh["only_stored"] == stored["families"]["only_stored"]


def test_no_stored_data_changes_nothing(tmp_path):
    fresh = {"bart": {"runs": [{"mode": "eval", "dtype": "float16"}]}}
    _keep_stored_runs(tmp_path / "missing.json", fresh)
    assert fresh == {"bart": {"runs": [{"mode": "eval", "dtype": "float16"}]}}
