"""Fixtures for the end-to-end tests: the binary, recorded editor clients, sessions."""

from __future__ import annotations

import copy
import json
import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from lsp_client import LspClient, Session  # noqa: E402
from private_cache import use_private_cache  # noqa: E402


def pytest_configure(config):
    use_private_cache()

REPO = HERE.parent.parent
CLIENTS = ("vscode", "neovim", "eglot")
PUSH_CLIENTS = ("vscode", "eglot")
# What each recorded client must negotiate (first supported entry of its positionEncodings).
EXPECTED_ENCODING = {"vscode": "utf-16", "neovim": "utf-8", "eglot": "utf-32"}


def binary_path() -> str:
    return os.environ.get("GRAPHMEND_BIN", str(REPO / "build" / "graphmend"))


@pytest.fixture(scope="session")
def binary() -> str:
    path = binary_path()
    if not os.access(path, os.X_OK):
        pytest.fail(f"graphmend binary not found at {path} (build it or set GRAPHMEND_BIN)")
    return path


def load_client(name: str) -> dict:
    with open(HERE / "clients" / f"{name}.json", encoding="utf-8") as f:
        return json.load(f)


def init_params_for(name: str, workspace: pathlib.Path) -> dict:
    params = copy.deepcopy(load_client(name))
    uri = workspace.as_uri()
    params["processId"] = os.getpid()
    if "rootPath" in params:
        params["rootPath"] = str(workspace)
    params["rootUri"] = uri
    if "workspaceFolders" in params:
        params["workspaceFolders"] = [{"uri": uri, "name": workspace.name}]
    return params


class ServerFactory:
    """Starts servers and, at teardown, checks each conversation and ends the process."""

    def __init__(self, binary: str, tmp_path: pathlib.Path):
        self.binary = binary
        self.tmp_path = tmp_path
        self.clients: list[LspClient] = []

    def spawn(self, *args: str) -> LspClient:
        argv = [self.binary] + (list(args) if args else ["serve"])
        client = LspClient(argv, cwd=str(self.tmp_path))
        self.clients.append(client)
        return client

    def session(self, name: str | None = None, params: dict | None = None,
                initialize: bool = True, config: dict | None = None) -> Session:
        """A session initialized with a recorded client's payload (name) or explicit params."""
        client = self.spawn()
        if config is not None:
            client.config = config
        if params is None:
            params = init_params_for(name, self.tmp_path)
        session = Session(client, params, str(self.tmp_path))
        if initialize:
            session.initialize()
        return session

    def finish(self) -> list[str]:
        problems = []
        for client in self.clients:
            if client.proc.poll() is None:
                try:
                    client.request("shutdown", None, timeout=3)
                    client.notify("exit")
                    client.proc.wait(3)
                except (AssertionError, OSError, subprocess.TimeoutExpired):
                    pass
            client.kill()
            problems += [f"{client.argv}: {p}" for p in client.protocol_errors]
            problems += [f"{client.argv}: {p}" for p in client.unanswered_or_duplicated()]
        return problems


@pytest.fixture
def servers(binary, tmp_path):
    factory = ServerFactory(binary, tmp_path)
    yield factory
    problems = factory.finish()
    assert not problems, "protocol problems:\n" + "\n".join(problems)


@pytest.fixture(params=CLIENTS)
def client_name(request) -> str:
    return request.param


@pytest.fixture(params=PUSH_CLIENTS)
def push_client_name(request) -> str:
    return request.param


@pytest.fixture
def session(servers, client_name) -> Session:
    return servers.session(client_name)


@pytest.fixture
def files(tmp_path):
    """Writes a file (and its folders) under tmp_path: files("pkg/m.py", text) -> its path."""
    def write(name, text):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path
    return write


def run_cli(binary: str, *args: str, cwd=None, stdin_data: bytes | None = None,
            timeout: float = 10) -> subprocess.CompletedProcess:
    return subprocess.run([binary, *args], cwd=cwd, input=stdin_data, capture_output=True,
                          timeout=timeout)
