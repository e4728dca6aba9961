"""graphmend installed as a user installs it: the wheel `tools/build-wheel` makes (python -m build
through meson-python, from the sdist) into a fresh virtual environment, with nothing of this
checkout on PATH; the binary there is self-contained (its NEEDED entries are glibc's alone), checks
the bundled example, answers the language server protocol over pipes, and is byte for byte the
binary the VSIX bundles."""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "decoder_block.py"
SYSTEM_LIBRARIES = re.compile(r"libuv|libjansson|libtree-sitter")


def meson_version() -> str:
    text = (REPO / "meson.build").read_text(encoding="utf-8")
    return re.search(r"version\s*:\s*'([^']+)'", text).group(1)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run([str(REPO / "tools" / "build-wheel"), "--outdir", str(out)],
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-4000:]
    sdist, wheel = proc.stdout.strip().splitlines()[-2:]
    return {"sdist": pathlib.Path(sdist if os.path.isabs(sdist) else REPO / sdist),
            "wheel": pathlib.Path(wheel if os.path.isabs(wheel) else REPO / wheel)}


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory) -> dict:
    """A new venv with the wheel, and an environment whose PATH has that venv and the system."""
    venv = tmp_path_factory.mktemp("user") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    proc = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-index",
                           "--disable-pip-version-check", str(dist["wheel"])],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAPHMEND", "VIRTUAL_ENV"))}
    env["PATH"] = f"{venv / 'bin'}:/usr/bin:/bin"
    binary = shutil.which("graphmend", path=env["PATH"])
    return {"venv": venv, "env": env, "binary": pathlib.Path(binary) if binary else None}


def test_the_wheel_is_tagged_for_any_python_and_the_glibc_it_was_built_against(dist):
    name = dist["wheel"].name
    assert name.startswith(f"graphmend-{meson_version()}-py3-none-manylinux_"), name
    assert dist["sdist"].name == f"graphmend-{meson_version()}.tar.gz"
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        names = wheel.namelist()
    assert f"graphmend-{meson_version()}.data/scripts/graphmend" in names, names
    assert any(n.endswith("/graphmend/__main__.py") or n == "graphmend/__main__.py"
               for n in names), names


def test_graphmend_is_on_path_and_is_the_venvs(installed):
    assert installed["binary"] is not None, "pip install put no graphmend on PATH"
    assert installed["binary"].parent == installed["venv"] / "bin"
    proc = subprocess.run(["graphmend", "--version"], capture_output=True, text=True,
                          env=installed["env"], timeout=30)
    assert proc.stdout.strip() == f"graphmend {meson_version()}", proc


def test_python_dash_m_runs_the_binary(installed):
    proc = subprocess.run([str(installed["venv"] / "bin" / "python"), "-m", "graphmend",
                           "--version"], capture_output=True, text=True, env=installed["env"],
                          timeout=30)
    assert proc.returncode == 0 and proc.stdout.strip() == f"graphmend {meson_version()}", proc


def needed(binary: pathlib.Path) -> list[str]:
    out = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True,
                         check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def test_the_installed_binary_needs_no_library_but_glibc(installed):
    libraries = needed(installed["binary"])
    assert libraries, "readelf found no NEEDED entry: not the dynamic executable expected"
    assert not [lib for lib in libraries if SYSTEM_LIBRARIES.search(lib)], libraries
    assert all(lib.startswith(("libc.so", "ld-linux", "libm.so", "libpthread", "libdl", "librt"))
               for lib in libraries), libraries


def test_check_on_the_bundled_example_prints_its_four_findings(installed, tmp_path):
    shutil.copy(EXAMPLE, tmp_path / EXAMPLE.name)
    proc = subprocess.run(["graphmend", "check", "--output-format", "concise", EXAMPLE.name],
                          cwd=tmp_path, capture_output=True, text=True, env=installed["env"],
                          timeout=60)
    assert proc.returncode == 1, proc
    findings = [line for line in proc.stdout.splitlines() if line.startswith(EXAMPLE.name + ":")]
    assert len(findings) == 4, proc.stdout
    assert "Found 4 predicted graph breaks." in proc.stdout


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_messages(stream: bytes) -> list[dict]:
    messages = []
    while stream:
        header, _, rest = stream.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", header).group(1))
        messages.append(json.loads(rest[:length]))
        stream = rest[length:]
    return messages


def initialize_and_shutdown(binary: pathlib.Path, cwd: pathlib.Path, env: dict) -> list[dict]:
    session = b"".join(frame(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": cwd.as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ])
    proc = subprocess.run([str(binary), "server"], input=session, capture_output=True, cwd=cwd,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    return read_messages(proc.stdout)


def test_the_installed_server_answers_initialize_and_shutdown(installed, tmp_path):
    messages = initialize_and_shutdown(installed["binary"], tmp_path, installed["env"])
    by_id = {m.get("id"): m for m in messages if "id" in m}
    assert by_id[1]["result"]["serverInfo"]["name"] == "graphmend", by_id[1]
    assert by_id[1]["result"]["serverInfo"]["version"] == meson_version()
    assert by_id[2]["result"] is None


@pytest.fixture(scope="module")
def vsix_binary(tmp_path_factory) -> pathlib.Path:
    """The server binary inside the VSIX that vscode-client/scripts/package.sh makes by default."""
    if not (REPO / "vscode-client" / "node_modules").is_dir() and not shutil.which("npm"):
        pytest.fail("npm is needed to package the VSIX (tools/setup installs it)")
    out = tmp_path_factory.mktemp("vsix")
    env = {k: v for k, v in os.environ.items() if k != "GRAPHMEND_BIN"}
    proc = subprocess.run([str(REPO / "vscode-client" / "scripts" / "package.sh"), "--out",
                           str(out / "graphmend.vsix")], capture_output=True, text=True, env=env,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-4000:]
    with zipfile.ZipFile(out / "graphmend.vsix") as vsix:
        info = vsix.getinfo("extension/server/linux-x64/graphmend")
        vsix.extract(info, out)
    binary = out / "extension" / "server" / "linux-x64" / "graphmend"
    binary.chmod(0o755)
    return binary


def digest(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_vsix_bundles_the_wheels_binary(installed, vsix_binary):
    assert digest(vsix_binary) == digest(installed["binary"])


def test_the_vsix_binary_answers_initialize(vsix_binary, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    messages = initialize_and_shutdown(vsix_binary, tmp_path, env)
    assert any(m.get("id") == 1 and "capabilities" in m.get("result", {}) for m in messages)


def test_the_extension_version_is_the_meson_version():
    package = json.loads((REPO / "vscode-client" / "package.json").read_text(encoding="utf-8"))
    assert package["version"] == meson_version()


def test_package_sh_refuses_a_binary_linked_to_the_system_libraries(tmp_path):
    dynamic = REPO / "build" / "graphmend"
    if not dynamic.exists() or not any(SYSTEM_LIBRARIES.search(lib) for lib in needed(dynamic)):
        pytest.skip("no dynamically linked build/graphmend to try")
    proc = subprocess.run([str(REPO / "vscode-client" / "scripts" / "package.sh"), "--server",
                           str(dynamic), "--out", str(tmp_path / "x.vsix")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc
    assert "tools/build static" in proc.stderr
    assert not (tmp_path / "x.vsix").exists()


# --------------------------------------------------------------------------- meson install


@pytest.fixture(scope="module")
def meson_installed(tmp_path_factory) -> pathlib.Path:
    build = REPO / "build"
    if not (build / "build.ninja").exists():
        pytest.fail("build/ is not configured: run tools/build first")
    dest = tmp_path_factory.mktemp("destdir")
    proc = subprocess.run(["meson", "install", "-C", str(build), "--destdir", str(dest),
                           "--quiet"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return dest


def installed_file(root: pathlib.Path, pattern: str) -> pathlib.Path:
    found = sorted(root.glob(f"**/{pattern}"))
    assert len(found) == 1, (pattern, found)
    return found[0]


def test_meson_install_puts_the_binary_man_page_and_completions(meson_installed):
    binary = installed_file(meson_installed, "bin/graphmend")
    assert os.access(binary, os.X_OK)
    installed_file(meson_installed, "man1/graphmend.1")
    installed_file(meson_installed, "completions/graphmend.bash")
    installed_file(meson_installed, "site-functions/_graphmend")
    installed_file(meson_installed, "vendor_completions.d/graphmend.fish")


def subcommands() -> list[str]:
    out = subprocess.run([str(REPO / "build" / "graphmend"), "--help"], capture_output=True,
                         text=True, timeout=30).stdout
    return sorted(set(re.findall(r"^  graphmend ([a-z]+)", out, re.M)))


def options_in_help(command: str) -> set[str]:
    out = subprocess.run([str(REPO / "build" / "graphmend"), command, "--help"],
                         capture_output=True, text=True, timeout=30).stdout
    return set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", out))


def test_the_man_page_renders_and_covers_every_subcommand(meson_installed):
    page = installed_file(meson_installed, "man1/graphmend.1")
    if not shutil.which("groff"):
        pytest.skip("groff is not installed")
    text = subprocess.run(["groff", "-man", "-Tutf8", "-P-c", "-P-b", "-P-u", str(page)],
                          capture_output=True, text=True, check=True, timeout=60).stdout
    for command in subcommands():
        assert re.search(rf"^{command.upper()}$", text, re.M), command


def test_the_bash_completion_offers_each_subcommands_options(meson_installed):
    script = installed_file(meson_installed, "completions/graphmend.bash")
    for command in ("check", "fix", "profile", "run"):
        line = subprocess.run(
            ["bash", "-c", f'source "{script}"; COMP_WORDS=(graphmend {command} --); '
                           f'COMP_CWORD=2; _graphmend; printf "%s\\n" "${{COMPREPLY[@]}}"'],
            capture_output=True, text=True, check=True, timeout=30).stdout.split()
        assert options_in_help(command) - {"--"} <= set(line), (command, line)
    words = subprocess.run(
        ["bash", "-c", f'source "{script}"; COMP_WORDS=(graphmend ""); COMP_CWORD=1; '
                       f'_graphmend; printf "%s\\n" "${{COMPREPLY[@]}}"'],
        capture_output=True, text=True, check=True, timeout=30).stdout.split()
    assert set(subcommands()) <= set(words), words
