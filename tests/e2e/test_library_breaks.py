"""GM902: at `torch.compile(model)` of a model whose class an installed package defines, the
server publishes how many breaks graphmend predicts in the package on the model's path, with
related locations into the package's files, and offers to profile with the package mended. The
package is a fake one in a directory of its own, found through the `python` setting (a wrapper
that puts it on PYTHONPATH); its __init__ leaves a marker when imported, which must never
happen: the server asks find_spec, which imports nothing."""

import os
import pathlib
import sys

from conftest import run_cli

MODELING = """\
import torch
from torch import nn

from .helpers import scale_check


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.lin = nn.Linear(n, n)

    def forward(self, x):
        return scale_check(self.lin(x))


class TinyModel(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.blocks = nn.ModuleList([Block(n) for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


    def generate(self, x, steps=3):
        for _ in range(steps):
            x = self.forward(x)
            print("generated a step")
        return x


class Unused(nn.Module):
    def forward(self, x):
        print("not on the path", x)
        return x


def integrate(f, y):
    y = f(y)
    total = y.sum().item()
    return y / total
"""

HELPERS = """\
import torch


def scale_check(h):
    if h.abs().max() > 10:
        h = h / 10
    return h
"""

TRAIN = """\
import torch
from fakemodels import TinyModel

model = TinyModel(4)
compiled = torch.compile(model)
"""


def install_fake_package(root: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path, pathlib.Path]:
    """The package under root/site-packages, and a python wrapper that finds it. Returns
    (wrapper, helpers.py, the import marker)."""
    site = root / "site-packages"
    package = site / "fakemodels"
    package.mkdir(parents=True)
    marker = root / "imported"
    (package / "__init__.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nfrom .modeling import TinyModel, integrate\n")
    (package / "modeling.py").write_text(MODELING)
    (package / "helpers.py").write_text(HELPERS)
    wrapper = root / "python"
    wrapper.write_text(f"#!/bin/sh\nPYTHONPATH={site} exec {sys.executable} \"$@\"\n")
    wrapper.chmod(0o755)
    return wrapper, package / "helpers.py", marker


def library_diagnostics(diagnostics):
    return [d for d in diagnostics if d["code"] == "GM902"]


def test_compile_call_lists_the_package_breaks(servers, client_name, tmp_path_factory):
    wrapper, helpers, marker = install_fake_package(tmp_path_factory.mktemp("env"))
    session = servers.session(client_name)
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"python": str(wrapper)}}})
    uri = session.open("train.py", TRAIN)
    found = library_diagnostics(session.diagnostics_until(
        uri, lambda d: bool(library_diagnostics(d)), since=session.docs[uri]["mark"],
        timeout=30))
    assert len(found) == 1, found
    diagnostic = found[0]
    assert diagnostic["severity"] == 3  # information
    assert diagnostic["range"]["start"] == {"line": 4, "character": 11}
    assert "1 graph break in fakemodels on the path of `TinyModel`" in diagnostic["message"]
    related = diagnostic["relatedInformation"]
    # the helper's branch (reached through Block, which TinyModel.__init__ builds); not the
    # print of Unused, which nothing on the path builds
    assert [(r["location"]["uri"], r["location"]["range"]["start"]) for r in related] == [
        (helpers.resolve().as_uri(), {"line": 4, "character": 7})]
    assert related[0]["message"].startswith("GM101 data-dependent-branch: `if h.abs().max() > 10`")
    assert not marker.exists(), "the package was imported"

    line = {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 0}}
    actions = [a for a in session.code_actions(uri, line, found)
               if a["title"] == "Profile with fakemodels mended"]
    assert len(actions) == 1, actions
    command = actions[0]["command"]
    assert command["command"] == "graphmend.profile"
    assert command["arguments"] == [uri, {"packages": ["fakemodels"]}]


def test_compile_call_finding_follows_edits(servers, tmp_path_factory):
    """The compile sites come from the document's incremental analysis: lines typed above the
    call move the finding with it, typing elsewhere keeps it, and deleting the call drops it."""
    wrapper, _, _ = install_fake_package(tmp_path_factory.mktemp("env"))
    session = servers.session("vscode")
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"python": str(wrapper)}}})
    uri = session.open("train.py", TRAIN)
    found = library_diagnostics(session.diagnostics_until(
        uri, lambda d: bool(library_diagnostics(d)), since=session.docs[uri]["mark"],
        timeout=30))
    assert [d["range"]["start"] for d in found] == [{"line": 4, "character": 11}]

    # above the model's line: the call's statement is reused and moved (an edit of the imports
    # would analyse again every statement that names them)
    above = {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}}
    session.change(uri, [{"range": above, "text": "x = 0\ny = 1\n"}])
    found = library_diagnostics(session.diagnostics(uri))
    assert [d["range"]["start"] for d in found] == [{"line": 6, "character": 11}], found

    end = {"start": {"line": 7, "character": 0}, "end": {"line": 7, "character": 0}}
    session.change(uri, [{"range": end, "text": "x = 1\n"}])
    found = library_diagnostics(session.diagnostics(uri))
    assert [d["range"]["start"] for d in found] == [{"line": 6, "character": 11}], found

    call = {"start": {"line": 6, "character": 0}, "end": {"line": 7, "character": 0}}
    session.change(uri, [{"range": call, "text": ""}])
    assert library_diagnostics(session.diagnostics(uri)) == []


def test_compile_call_finding_follows_the_models_binding(servers, tmp_path_factory):
    """The compile sites are built again when the binding of the variable the call compiles
    changes (`model = TinyModel(4)` renamed), not for bindings no call reads."""
    wrapper, _, _ = install_fake_package(tmp_path_factory.mktemp("env"))
    session = servers.session("vscode")
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"python": str(wrapper)}}})
    uri = session.open("train.py", TRAIN)
    found = library_diagnostics(session.diagnostics_until(
        uri, lambda d: bool(library_diagnostics(d)), since=session.docs[uri]["mark"],
        timeout=30))
    assert [d["range"]["start"] for d in found] == [{"line": 4, "character": 11}]

    def rename(text: str) -> list:
        # the same length: the call does not move (a moved call rebuilds the sites anyway)
        name = {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 5}}
        session.change(uri, [{"range": name, "text": text}])
        return library_diagnostics(session.diagnostics(uri))

    # `modex = TinyModel(4)`: torch.compile(model) no longer compiles a TinyModel
    assert rename("modex") == []
    # and back: the finding returns
    found = rename("model")
    assert [d["range"]["start"] for d in found] == [{"line": 4, "character": 11}], found
    # another binding of the class, which no compile call reads, changes nothing
    end = {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}}
    session.change(uri, [{"range": end, "text": "other = TinyModel(2)\n"}])
    found = library_diagnostics(session.diagnostics(uri))
    assert [d["range"]["start"] for d in found] == [{"line": 4, "character": 11}], found


def test_no_finding_when_the_interpreter_lacks_the_package(servers, tmp_path):
    session = servers.session("vscode")
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"python": sys.executable}}})
    uri = session.open("train.py", TRAIN)
    session.diagnostics(uri)
    session.client.wait_notification(
        "window/logMessage", lambda p: "fakemodels.TinyModel not analysed" in p["message"]
        and "not installed" in p["message"], timeout=30)
    # published again after the analysis: still nothing of GM902, and the rest unchanged
    assert library_diagnostics(session.diagnostics(uri)) == []


def test_cli_check_reports_the_same_finding(binary, tmp_path, tmp_path_factory):
    wrapper, helpers, marker = install_fake_package(tmp_path_factory.mktemp("env"))
    (tmp_path / "train.py").write_text(TRAIN)
    proc = run_cli(binary, "check", "--output-format", "concise", "--python", str(wrapper),
                   "train.py", cwd=tmp_path, timeout=60)
    out = proc.stdout.decode()
    assert proc.returncode == 1, proc.stderr
    assert ("train.py:5:12: GM902 graphmend predicts 1 graph break in fakemodels on the path of "
            "`TinyModel`, in 1 file of the package: fakemodels/helpers.py:5:8 GM101") in out
    assert "not on the path" not in out
    assert not marker.exists()
    # an interpreter without the package: said on stderr, no finding, no error
    proc = run_cli(binary, "check", "--python", sys.executable, "train.py", cwd=tmp_path,
                   timeout=60)
    assert proc.returncode == 0, proc.stdout
    assert b"package 'fakemodels' is not installed for" in proc.stderr
    # a package that is part of the project is the workspace's own analysis
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "fakemodels").mkdir()
    for name in ("__init__.py", "modeling.py", "helpers.py"):
        (project / "fakemodels" / name).write_text(
            (wrapper.parent / "site-packages" / "fakemodels" / name).read_text())
    (project / "train.py").write_text(TRAIN)
    local = project / "python"
    local.write_text(f"#!/bin/sh\nPYTHONPATH={project} exec {sys.executable} \"$@\"\n")
    local.chmod(0o755)
    proc = run_cli(binary, "check", "--output-format", "concise", "--python", str(local),
                   "train.py", cwd=project, timeout=60)
    assert b"GM902" not in proc.stdout
    assert b"is part of the project" in proc.stderr


def test_alternate_constructors_and_a_relative_interpreter(binary, tmp_path, tmp_path_factory):
    """`Cls.from_pretrained(...)` and `Cls.from_config(...)` build a Cls (Python's naming of
    alternate constructors), assigned first or compiled in place; `--python venv/bin/python`
    is taken from the current directory, though the package query runs in `/`."""
    env = tmp_path_factory.mktemp("env")
    wrapper, helpers, marker = install_fake_package(env)
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "venv" / "bin" / "python").symlink_to(wrapper)
    (tmp_path / "train.py").write_text(
        "import torch\nfrom fakemodels import TinyModel\n\n"
        "model = TinyModel.from_pretrained('tiny').eval()\n"
        "compiled = torch.compile(model)\n"
        "other = torch.compile(TinyModel.from_config(model.config))\n"
        "arrays = torch.compile(torch.from_numpy(x))\n")
    proc = run_cli(binary, "check", "--output-format", "concise", "--python", "venv/bin/python",
                   "train.py", cwd=tmp_path, timeout=60)
    out = proc.stdout.decode()
    assert proc.returncode == 1, proc.stderr
    for at in ("train.py:5:12", "train.py:6:9"):
        assert (f"{at}: GM902 graphmend predicts 1 graph break in fakemodels on the path of "
                "`TinyModel`") in out, out
    assert out.count("GM902") == 2, out  # torch.from_numpy builds no class of a package
    assert not marker.exists()


def test_profile_packages_argument_is_checked(servers):
    session = servers.session("vscode")
    uri = session.open("train.py", TRAIN)
    for packages, problem in ((["transformers; rm -rf /"], "packages[0] must be a package name"),
                              ("transformers", "packages must be a list of package names"),
                              ([3], "packages[0] must be a package name")):
        answer = session.client.request("workspace/executeCommand", {
            "command": "graphmend.profile", "arguments": [uri, {"packages": packages}]})
        assert answer["error"]["code"] == -32602, answer
        assert problem in answer["error"]["message"]


ENTRY_POINTS = """\
import torch
import fakemodels
from fakemodels import TinyModel, integrate

model = TinyModel(4)
fast_generate = torch.compile(model.generate)
fast_integrate = torch.compile(integrate)
also = torch.compile(fakemodels.integrate)
"""


def test_cli_follows_compiled_functions_and_bound_methods(binary, tmp_path, tmp_path_factory):
    wrapper, helpers, marker = install_fake_package(tmp_path_factory.mktemp("env"))
    (tmp_path / "entry.py").write_text(ENTRY_POINTS)
    proc = run_cli(binary, "check", "--output-format", "concise", "--python", str(wrapper),
                   "entry.py", cwd=tmp_path, timeout=60)
    out = proc.stdout.decode()
    assert proc.returncode == 1, proc.stderr
    lines = sorted(line for line in out.splitlines() if "GM902" in line)
    assert len(lines) == 3, out
    # the method's path: generate's print, and the forwards it runs (helpers' branch)
    assert lines[0].startswith("entry.py:6:17: GM902 graphmend predicts 2 graph breaks in "
                               "fakemodels on the path of `TinyModel.generate`"), lines[0]
    assert "fakemodels/modeling.py:" in lines[0] and "GM401" in lines[0], lines[0]
    assert "fakemodels/helpers.py:5:8 GM101" in lines[0], lines[0]
    # the function's: its .item(), by either spelling
    for line in lines[1:]:
        assert "1 graph break in fakemodels on the path of" in line, line
        assert "fakemodels/modeling.py:" in line and "GM201" in line, line
    assert "not on the path" not in out
    assert not marker.exists()


def test_editor_follows_a_compiled_function(servers, tmp_path_factory):
    wrapper, helpers, marker = install_fake_package(tmp_path_factory.mktemp("env"))
    session = servers.session("vscode")
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"python": str(wrapper)}}})
    uri = session.open("entry.py", ENTRY_POINTS)
    found = library_diagnostics(session.diagnostics_until(
        uri, lambda d: len(library_diagnostics(d)) == 3, since=session.docs[uri]["mark"],
        timeout=30))
    by_line = {d["range"]["start"]["line"]: d for d in found}
    assert sorted(by_line) == [5, 6, 7], found
    assert "on the path of `integrate`" in by_line[6]["message"], by_line[6]
    assert any(r["location"]["uri"].endswith("fakemodels/modeling.py")
               for r in by_line[6]["relatedInformation"]), by_line[6]
    assert not marker.exists()
