"""`confirm --timeout` and `profile --timeout` bound the whole job, whatever the user's code
starts: a grandchild in a session of its own that keeps stdout open (it used to keep confirm
waiting past 240 s with --timeout 90, its temp dir left behind) is killed, the command ends
within the timeout plus a few seconds, no process of the job is left, and the job's working
directory is gone."""

import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest

PYTHON = sys.executable

# The entry starts `sleep` in a new session (out of the helper's process group), holding the
# helper's stdout, and records its pid for the test.
LINGERING = textwrap.dedent("""\
    import os
    import subprocess
    import sys

    import torch


    class Net(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            if x.sum() > 0:  # a safe mend, so that profile has two arms to run
                x = x * 2
            return x


    def graphmend_profile_entry():
        child = subprocess.Popen(["sleep", "1002"], start_new_session=True)
        with open(os.environ["LINGER_PID_FILE"], "w") as f:
            f.write(str(child.pid))
        return Net(), (torch.randn(2, 2),)
    """)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = pathlib.Path(f"/proc/{pid}/stat")
    return stat.exists() and ") Z " not in stat.read_text()  # a zombie is not running


def _job_dirs():
    return {p.name for p in pathlib.Path(tempfile.gettempdir()).glob("graphmend-profile-*")}


@pytest.mark.parametrize("command, extra", [
    ("confirm", []),
    ("profile", ["--device", "cpu", "--backend", "aot_eager", "--iterations", "2",
                 "--warmup", "1"]),
])
def test_a_grandchild_in_its_own_session_does_not_outlive_the_timeout(binary, tmp_path,
                                                                       command, extra):
    model = tmp_path / "lingering.py"
    model.write_text(LINGERING, encoding="utf-8")
    pid_file = tmp_path / "pid"
    env = dict(os.environ, LINGER_PID_FILE=str(pid_file))
    dirs_before = _job_dirs()
    start = time.monotonic()
    proc = subprocess.run([binary, command, str(model), "--python", PYTHON, "--timeout", "60",
                           *extra], capture_output=True, timeout=180, env=env)
    elapsed = time.monotonic() - start
    pid = int(pid_file.read_text())
    try:
        assert elapsed < 65, (elapsed, proc.stderr)
        time.sleep(0.5)
        assert not _alive(pid), f"the grandchild {pid} outlived {command}"
        assert _job_dirs() <= dirs_before, "the job's working directory was left behind"
    finally:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
