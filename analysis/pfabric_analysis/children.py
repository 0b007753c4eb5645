"""The programs a sweep runs, as child processes that die with the thread that started them.

A sweep killed by SIGKILL cannot stop its children itself; left running, a program would still
write its point's run directory while a resumed sweep runs that point again. On Linux each child
asks the kernel for SIGKILL when its parent thread ends (prctl PR_SET_PDEATHSIG); elsewhere
children outlive a killed sweep (end them with its process group).
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def death_signal_hook() -> Callable[[], None] | None:
    """A preexec_fn that makes the child die with its parent (Linux; None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    parent = os.getpid()

    def hook() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the request took effect
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


def run_child(command: Sequence[str], env: dict[str, str] | None = None
              ) -> subprocess.CompletedProcess:
    """Run a program to its end, its output captured as text; it dies if this process does."""
    return subprocess.run(list(command), capture_output=True, text=True, env=env,
                          preexec_fn=death_signal_hook(), check=False)
