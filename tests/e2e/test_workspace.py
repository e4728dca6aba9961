"""Compiled code across files: a helper module's breaks are reported where they are when another
file's compiled code calls it (through absolute, relative and re-exported imports), in the editor
and on the command line, and editing the caller updates the helper's diagnostics."""

import json
import pathlib

from conftest import init_params_for, run_cli
from lsp_client import range_of

HELPERS = """\
import torch


def clamp_scores(s):
    if s.max() > 10:
        s = s.clamp(max=10)
    return s


def log_shape(x):
    print("shape", x.shape)
    return x


def unused(x):
    print("nothing compiled calls this")
    return x
"""

MODEL = """\
import torch
import torch.nn as nn

from . import helpers
from pkg import clamp_scores


class Attention(nn.Module):
    def forward(self, x):
        s = clamp_scores(x @ x.transpose(-1, -2))
        return helpers.log_shape(s.softmax(-1))
"""

SCRIPT = """\
import torch

from pkg.helpers import unused


def step(x):
    return unused(x) * 2


fast_step = torch.compile(step)
"""


def write_project(root: pathlib.Path, with_script: bool = False) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("from .helpers import clamp_scores\n")
    (root / "pkg" / "helpers.py").write_text(HELPERS)
    (root / "pkg" / "model.py").write_text(MODEL)
    if with_script:
        (root / "train.py").write_text(SCRIPT)


def codes_and_lines(diagnostics):
    return sorted((d["code"], d["range"]["start"]["line"]) for d in diagnostics)


# Deadline for the index of a fresh workspace: generous, since a loaded machine (a fresh clone
# built and tested beside other suites) slows the server's sliced indexing, and waiting costs
# nothing once the expected publication is there.
INDEX_DEADLINE = 30.0


def indexed_diagnostics(session, uri, expected):
    """A just-opened document's diagnostics once they are expected ((code, line) pairs): the
    server answers an open at once and publishes again as indexing the other files (in slices,
    after the first 200 ms) changes them, so on a loaded machine the first publications may
    predate the cross-file facts (the script that compiles a helper not indexed yet). Waits for
    the publication that reflects the indexed workspace; on the deadline, shows them all."""
    try:
        return session.diagnostics_until(uri, lambda d: codes_and_lines(d) == expected,
                                         since=session.docs[uri]["mark"],
                                         timeout=INDEX_DEADLINE)
    except AssertionError as timeout:
        published = [codes_and_lines(m["params"]["diagnostics"])
                     for m in session.client.notifications("textDocument/publishDiagnostics")
                     if m["params"]["uri"] == uri]
        raise AssertionError(f"{uri}: no publication of {expected}; published: {published}") \
            from timeout


def test_helper_module_breaks_reported_where_they_are(servers, client_name, tmp_path):
    write_project(tmp_path)
    session = servers.session(client_name)
    uri = session.open("pkg/helpers.py", HELPERS, write_file=False)
    # clamp_scores (re-exported by pkg/__init__) and log_shape (module attribute) are called by
    # Attention.forward in pkg/model.py, which is not open; unused() is called by nothing.
    diagnostics = indexed_diagnostics(session, uri, [("GM101", 4), ("GM401", 10)])
    assert codes_and_lines(diagnostics) == [("GM101", 4), ("GM401", 10)]
    enc = session.encoding
    assert diagnostics and range_of(HELPERS, "print(", enc)["start"]["line"] == 10


def test_editing_the_caller_updates_the_helper(servers, push_client_name, tmp_path):
    write_project(tmp_path)
    session = servers.session(push_client_name)
    helpers = session.open("pkg/helpers.py", HELPERS, write_file=False)
    expected = [("GM101", 4), ("GM401", 10)]
    assert codes_and_lines(indexed_diagnostics(session, helpers, expected)) == expected
    model = session.open("pkg/model.py", MODEL, write_file=False)
    session.diagnostics(model)
    # The caller stops calling log_shape: the helper's print is no longer compiled.
    mark = session.client.mark()
    rng = range_of(MODEL, "helpers.log_shape(s.softmax(-1))", session.encoding)
    session.change(model, [{"range": rng, "text": "s.softmax(-1)"}])
    after = session.diagnostics_until(helpers, lambda d: len(d) == 1, since=mark)
    assert codes_and_lines(after) == [("GM101", 4)]
    # And calling it again brings the break back.
    mark = session.client.mark()
    text = session.text(model)
    rng = range_of(text, "s.softmax(-1)", session.encoding, occurrence=0)
    session.change(model, [{"range": rng, "text": "helpers.log_shape(s.softmax(-1))"}])
    again = session.diagnostics_until(helpers, lambda d: len(d) == 2, since=mark)
    assert codes_and_lines(again) == [("GM101", 4), ("GM401", 10)]


def test_compile_target_in_another_file(servers, tmp_path):
    write_project(tmp_path, with_script=True)
    session = servers.session("vscode")
    # The project is on disk already: rewriting helpers.py now would race the server's scan.
    uri = session.open("pkg/helpers.py", HELPERS, write_file=False)
    # train.py compiles step, which calls unused(): now every function of the helper is reached.
    expected = [("GM101", 4), ("GM401", 10), ("GM401", 15)]
    assert codes_and_lines(indexed_diagnostics(session, uri, expected)) == expected


def test_compile_target_found_when_the_index_comes_after_the_open(servers, tmp_path):
    # The race made certain: the helper is open (and published) before `initialized` starts
    # the workspace index, so its first diagnostics cannot know train.py; the ones that reflect
    # the indexed workspace follow.
    write_project(tmp_path, with_script=True)
    session = servers.session("vscode", initialize=False)
    session.initialize(initialized=False)
    uri = session.open("pkg/helpers.py", HELPERS, write_file=False)
    session.client.barrier()
    session.client.notify("initialized", {})
    expected = [("GM101", 4), ("GM401", 10), ("GM401", 15)]
    assert codes_and_lines(indexed_diagnostics(session, uri, expected)) == expected


def test_cli_check_follows_imports_within_the_project(binary, tmp_path):
    write_project(tmp_path)
    helpers = str(tmp_path / "pkg" / "helpers.py")
    proc = run_cli(binary, "check", "--output-format", "json", helpers)
    assert proc.returncode == 1, proc.stderr
    found = sorted((f["location"]["row"], f["code"]) for f in json.loads(proc.stdout))
    assert found == [(5, "GM101"), (11, "GM401")]
    # Without a project marker the caller is unknown when only the helper is checked, but
    # checking the caller's directory finds it.
    (tmp_path / "pyproject.toml").unlink()
    proc = run_cli(binary, "check", "--output-format", "json", helpers)
    assert proc.returncode == 0, proc.stdout
    # Checking the package itself checks a library: a public function nothing compiles is an
    # entry point a user may compile, its breaks reported on that condition.
    proc = run_cli(binary, "check", "--output-format", "json", str(tmp_path / "pkg"))
    found = sorted((f["location"]["row"], f["code"], (f.get("only_when") or {}).get("condition"))
                   for f in json.loads(proc.stdout))
    assert found == [(5, "GM101", None), (11, "GM401", None),
                     (16, "GM401", "pkg.helpers.unused is compiled")]


def test_cli_scripts_with_same_module_name_do_not_mix(binary, tmp_path):
    # Two script directories, each with its own utils.py: each script reaches its own.
    for name, body in (("a", "print('a', x.sum())"), ("b", "return x")):
        d = tmp_path / name
        d.mkdir()
        (d / "utils.py").write_text(f"def helper(x):\n    {body}\n    return x\n")
        (d / "main.py").write_text(
            "import torch\nfrom utils import helper\n\n\n@torch.compile\n"
            "def run(x):\n    return helper(x)\n")
    proc = run_cli(binary, "check", "--output-format", "json", str(tmp_path))
    found = sorted((pathlib.Path(f["filename"]).parent.name, f["location"]["row"], f["code"])
                   for f in json.loads(proc.stdout))
    assert found == [("a", 2, "GM401")]


LAYERS = """\
import torch.nn as nn


class Block(nn.Module):
    def scale(self, x):
        return x * 2
"""

NET = """\
from layers import Block


class Net(Block):
    def forward(self, x):
        print("forward", x.shape)
        return self.scale(x)
"""


def test_module_base_in_another_file(servers, push_client_name, tmp_path):
    # Net is an nn.Module only through Block in layers.py: its forward is compiled in the editor
    # as on the command line, and it stops being so when the base stops being a Module.
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "layers.py").write_text(LAYERS)
    (tmp_path / "net.py").write_text(NET)
    session = servers.session(push_client_name)
    net = session.open("net.py", NET, write_file=False)
    assert codes_and_lines(indexed_diagnostics(session, net, [("GM401", 5)])) == [("GM401", 5)]
    layers = session.open("layers.py", LAYERS, write_file=False)
    session.diagnostics(layers)
    mark = session.client.mark()
    rng = range_of(LAYERS, "nn.Module", session.encoding)
    session.change(layers, [{"range": rng, "text": "object"}])
    after = session.diagnostics_until(net, lambda d: len(d) == 0, since=mark)
    assert after == []


def test_file_outside_the_folders_reads_the_imports_of_its_buffer(servers, push_client_name,
                                                                    tmp_path):
    # A file outside the workspace folders whose buffer imports what the saved file does not:
    # its index entry comes from the buffer's analysis (one parse, no summary read from disk
    # first), and the modules the buffer imports from next to it are loaded then, so Net is a
    # Module through Block and its forward compiled.
    (tmp_path / "ws").mkdir()
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "layers.py").write_text(LAYERS)
    (scripts / "net.py").write_text("class Net:\n    pass\n")
    params = init_params_for(push_client_name, tmp_path / "ws")
    session = servers.session(params=params)
    net = session.open("scripts/net.py", NET, write_file=False)
    assert codes_and_lines(indexed_diagnostics(session, net, [("GM401", 5)])) == [("GM401", 5)]


SCHEDULE = """\
import torch


class Schedule:
    def __init__(self):
        self.w = torch.ones(4)

    def set_steps(self, n):
        self.w = torch.ones(n)

    @property
    def sigma(self):
        return self.w.sum().item()
"""

SAMPLER = """\
import torch.nn as nn

from schedule import Schedule


class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.schedule = Schedule()

    def forward(self, x):
        self.schedule.set_steps(2)
        y = self.schedule.sigma * x
        print(y)
        return y
"""


def write_sampler(root: pathlib.Path) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (root / "schedule.py").write_text(SCHEDULE)
    (root / "sampler.py").write_text(SAMPLER)


def test_cli_property_getter_of_an_imported_class(binary, tmp_path):
    # The getter breaks (GM201 in schedule.py); the sampler stored a tensor through set_steps
    # before reading it, so the read breaks too and the print after it is never traced. Known
    # when the getter's file is checked with its rules: checking the sampler alone summarises
    # schedule.py without them, and only the print is reported.
    write_sampler(tmp_path)
    proc = run_cli(binary, "check", "--output-format", "json", str(tmp_path))
    found = sorted((pathlib.Path(f["filename"]).name, f["location"]["row"], f["code"])
                   for f in json.loads(proc.stdout))
    assert found == [("sampler.py", 13, "GM201"), ("schedule.py", 13, "GM201")], proc.stdout
    proc = run_cli(binary, "check", "--output-format", "json", str(tmp_path / "sampler.py"))
    found = sorted((f["location"]["row"], f["code"]) for f in json.loads(proc.stdout))
    assert found == [(14, "GM401")], proc.stdout


def test_editor_property_getter_of_an_imported_class(servers, push_client_name, tmp_path):
    # Opening the getter's file gives the sampler's document the getter's break: its read is
    # reported and its print no longer is.
    write_sampler(tmp_path)
    session = servers.session(push_client_name)
    sampler = session.open("sampler.py", SAMPLER, write_file=False)
    assert codes_and_lines(indexed_diagnostics(session, sampler, [("GM401", 13)])) == \
        [("GM401", 13)]
    mark = session.client.mark()
    schedule = session.open("schedule.py", SCHEDULE, write_file=False)
    assert codes_and_lines(session.diagnostics(schedule)) == [("GM201", 12)]
    after = session.diagnostics_until(sampler, lambda d: codes_and_lines(d) == [("GM201", 12)],
                                      since=mark, timeout=INDEX_DEADLINE)
    assert codes_and_lines(after) == [("GM201", 12)]


EDGE_UTILS = """\
from typing import Tuple

from torch import Tensor


def to_pairs(adj) -> Tuple[Tensor, Tensor]:
    return adj.indices(), adj.values()
"""

EDGE_CONV = """\
import torch

from .edge_utils import to_pairs


class Conv(torch.nn.Module):
    def forward(self, adj):
        index, weight = to_pairs(adj)
        loop = index[0] == index[1]
        weight[loop] -= 1
        return weight
"""


def write_edges(root: pathlib.Path) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (root / "graph").mkdir()
    (root / "graph" / "__init__.py").write_text("")
    (root / "graph" / "edge_utils.py").write_text(EDGE_UTILS)
    (root / "graph" / "conv.py").write_text(EDGE_CONV)


def test_cli_return_annotation_of_an_imported_function(binary, tmp_path):
    # to_pairs returns two tensors by its annotation: the mask of the first indexes the second.
    write_edges(tmp_path)
    proc = run_cli(binary, "check", "--output-format", "json", str(tmp_path))
    found = sorted((pathlib.Path(f["filename"]).name, f["location"]["row"], f["code"])
                   for f in json.loads(proc.stdout))
    assert found == [("conv.py", 10, "GM301")], proc.stdout


def test_editor_return_annotation_of_an_imported_function(servers, push_client_name, tmp_path):
    # The caller's finding comes from the annotation in the other file, and goes when the
    # annotation stops declaring tensors there (edited in the editor, not saved).
    write_edges(tmp_path)
    session = servers.session(push_client_name)
    conv = session.open("graph/conv.py", EDGE_CONV, write_file=False)
    assert codes_and_lines(indexed_diagnostics(session, conv, [("GM301", 9)])) == [("GM301", 9)]
    utils = session.open("graph/edge_utils.py", EDGE_UTILS, write_file=False)
    session.diagnostics(utils)
    mark = session.client.mark()
    rng = range_of(EDGE_UTILS, "Tuple[Tensor, Tensor]", session.encoding)
    session.change(utils, [{"range": rng, "text": "Tuple[list, list]"}])
    after = session.diagnostics_until(conv, lambda d: len(d) == 0, since=mark,
                                      timeout=INDEX_DEADLINE)
    assert after == []
