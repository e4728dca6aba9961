"""graphmend against the stored ground truth of the sweeps (tests/sweep/data/): real dynamo's
break sites and traced lines on real model families, re-scored in seconds without torch.

The floors below are what graphmend reaches today, per library version and run: a change that
loses precision or recall on code people run fails here. Raise them as predictions improve; the
targets are precision 0.95 and recall 0.90 (issue 13).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from score import HERE, REPO, default_source, predict_modes, ratio, score

DATA = sorted((HERE / "data").glob("*.json"))
BINARY = os.environ.get("GRAPHMEND_BIN", str(REPO / "build" / "graphmend"))

# (library-version, mode/dtype) -> (precision floor, recall floor, most false-alarm families)
FLOORS = json.loads((HERE / "floors.json").read_text(encoding="utf-8"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source_of(data: dict) -> Path:
    source = default_source(data)
    if not (source / data["library"]).is_dir():
        pytest.fail(f"{source} is missing: tools/setup unpacks {data['library']} {data['version']} there")
    return source


@pytest.mark.parametrize("path", DATA, ids=[p.stem for p in DATA])
def test_ground_truth_is_well_formed(path):
    data = load(path)
    assert data["torch"] and data["python"] and data["version"] in path.stem
    held = set(data["held_out"]) & set(data["families"])
    assert not held, f"held-out families in the stored truth: {sorted(held)}"
    for family, entry in data["families"].items():
        for run in entry["runs"]:
            files = set(run.get("traced", {})) | {b["file"] for b in run.get("breaks", [])}
            inside = sorted(f for f in files if f.split("/")[1:2] == ["models"]
                            and f.split("/")[2] in data["held_out"])
            assert not inside, f"{family}: held-out families' code in the stored truth: {inside}"
    source = source_of(data)
    ran = 0
    for family, entry in data["families"].items():
        for run in entry["runs"]:
            assert run["mode"] in ("eval", "train") and run["dtype"], (family, run)
            if "graphs" not in run:
                continue
            ran += 1
            for site in run["breaks"]:
                lines = (source / site["file"]).read_text(encoding="utf-8").splitlines()
                assert 0 < site["line"] <= len(lines), (family, site)
    assert ran > 0, "no run of the sweep built and ran a model"


@pytest.mark.parametrize("path", DATA, ids=[p.stem for p in DATA])
def test_predictions_hold_on_the_sweep(path):
    data = load(path)
    result = score(data, predict_modes(BINARY, source_of(data), data["library"]))
    failures = []
    for key, row in sorted(result["runs"].items()):
        floor = FLOORS.get(f"{path.stem} {key}")
        if floor is None:
            failures.append(f"{key}: no floor in floors.json (measured "
                            f"TP {row['tp']} FP {row['fp']} FN {row['fn']})")
            continue
        precision = ratio(row["tp"], row["tp"] + row["fp"])
        recall = ratio(row["tp"], row["tp"] + row["fn"])
        if precision < floor[0] or recall < floor[1] or len(row["false_alarms"]) > floor[2]:
            failures.append(f"{key}: precision {precision:.3f} (floor {floor[0]}), recall {recall:.3f} "
                            f"(floor {floor[1]}), false-alarm families {len(row['false_alarms'])} "
                            f"(at most {floor[2]}); `python tests/sweep/score.py --list {path}` lists them")
    assert not failures, "\n".join(failures)


# The libraries swept before first contact was recorded (tuned on before they were scored): every
# library added since keeps its first-contact score in its data (tests/sweep/first_contact.py).
BEFORE_FIRST_CONTACT = {"diffusers", "kornia", "monai", "timm", "torch_geometric", "torchaudio",
                        "torchvision", "transformers", "ultralytics", "vector_quantize_pytorch",
                        "vit_pytorch", "x_transformers"}


@pytest.mark.parametrize("path", DATA, ids=[p.stem for p in DATA])
def test_first_contact_is_kept(path):
    data = load(path)
    if data["library"] in BEFORE_FIRST_CONTACT:
        return
    first = data.get("first_contact")
    assert first, (f"{path.name}: no first-contact score; `python tests/sweep/first_contact.py record` "
                   "it with a build from before any change made for the library")
    assert len(first["graphmend"]) == 40, first["graphmend"]
    modes = {f"{run['mode']}/{run['dtype']}" for entry in data["families"].values()
             for run in entry["runs"] if "graphs" in run}
    assert set(first["runs"]) == modes, (sorted(first["runs"]), sorted(modes))
    for key, row in first["runs"].items():
        assert all(isinstance(row[k], int) and row[k] >= 0 for k in ("tp", "fp", "fn")), (key, row)


def test_first_contact_page_is_current(capsys):
    """docs/first-contact.md shows what `first_contact.py table --misses` prints today."""
    import first_contact

    first_contact.main(["table", "--misses", "--graphmend", BINARY])
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("|")]
    page = (REPO / "docs" / "first-contact.md").read_text(encoding="utf-8")
    shown = [line for line in page.splitlines() if line.startswith("|")]
    assert shown == printed, ("docs/first-contact.md is stale: paste the output of "
                              "`.venv/bin/python tests/sweep/first_contact.py table --misses`")
