"""The programs a sweep runs, as child processes that die with the thread that started them and
load the module library of their own build.

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
from pathlib import Path

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# The module's library, as a standalone build (libns3-pfabric.so) and an ns-3 tree
# (libns3.37-pfabric-optimized.so) name it.
MODULE_LIBRARY_GLOB = "libns3*pfabric*.so"


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


def program_environment(program: str | os.PathLike[str], environ: dict[str, str]
                        ) -> dict[str, str]:
    """`environ` for running `program`, with the library directory beside its bin/ (lib/, when it
    holds the module's library) first on LD_LIBRARY_PATH.

    A program's RUNPATH names the build it was linked in. A copy of a build's bin/ and lib/ (what
    the docs advise before a long run, so that rebuilding does not pull the library from under
    it) would otherwise still load that build's library: rebuilt since, it crashes the program
    or runs another model."""
    library_dir = Path(program).resolve().parent.parent / "lib"
    if not any(library_dir.glob(MODULE_LIBRARY_GLOB)):
        return environ
    paths = [str(library_dir), *[p for p in environ.get("LD_LIBRARY_PATH", "").split(":") if p]]
    return {**environ, "LD_LIBRARY_PATH": ":".join(paths)}


def run_child(command: Sequence[str], env: dict[str, str] | None = None
              ) -> subprocess.CompletedProcess:
    """Run a program to its end, its output captured as text, with its own build's library
    (program_environment); it dies if this process does."""
    env = program_environment(command[0], dict(os.environ) if env is None else env)
    return subprocess.run(list(command), capture_output=True, text=True, env=env,
                          preexec_fn=death_signal_hook(), check=False)
