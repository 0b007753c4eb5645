"""The one place that finds and runs the module's C++ programs (pfabric-websearch, -datamining,
...): where a build keeps them (find_program), running one as a child process that dies with the
thread that started it and loads the module library of its own build (run_program), and what its
--PrintHelp says it takes (program_help, program_options). Every runner uses it: sweep and
reproduce, ideal, flow-count, bottleneck, the SEM campaigns' option reader and the benchmark.
It is also where the analysis learns the schemes: a program's --listSchemes (program_schemes,
built_in_schemes), the one list there is; the analysis keeps none of its own.

A sweep killed by SIGKILL cannot stop its children itself; left running, a program would still
write its point's run directory while a resumed sweep runs that point again. On Linux each child
asks the kernel for SIGKILL when its parent thread ends (prctl PR_SET_PDEATHSIG); elsewhere
children outlive a killed sweep (end them with its process group).
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from pfabric_analysis import REPOSITORY
from pfabric_analysis.runs import CUSTOM_SCHEME, AnalysisError

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


def run_program(command: Sequence[str], env: dict[str, str] | None = None
                ) -> subprocess.CompletedProcess:
    """Run a program to its end, its output captured as text, with its own build's library
    (program_environment); it dies if this process does."""
    env = program_environment(command[0], dict(os.environ) if env is None else env)
    return subprocess.run(list(command), capture_output=True, text=True, env=env,
                          preexec_fn=death_signal_hook(), check=False)


def default_bin_dir() -> Path:
    """Where the programs are when --bin-dir is not given: $PFABRIC_BUILD_DIR/bin (./pfabric test
    sets it), else build/bin of the module (./pfabric build)."""
    build = os.environ.get("PFABRIC_BUILD_DIR")
    return Path(build) / "bin" if build else REPOSITORY / "build" / "bin"


def find_program(bin_dir: Path | None, name: str) -> Path:
    """The example program in a standalone build (bin/NAME) or an ns-3 tree (ns3.X-NAME-PROFILE)
    below bin_dir (None: default_bin_dir())."""
    bin_dir = default_bin_dir() if bin_dir is None else bin_dir
    exact = bin_dir / name
    if exact.is_file():
        return exact
    matches = sorted(p for p in bin_dir.rglob(f"*{name}*") if p.is_file() and os.access(p, os.X_OK))
    if len(matches) != 1:
        raise AnalysisError(f"--bin-dir {bin_dir}: {'no' if not matches else 'more than one'} "
                            f"{name} program (standalone: ./pfabric build makes build/bin)")
    return matches[0]


@functools.cache
def program_help(program: str) -> subprocess.CompletedProcess:
    """A program's --PrintHelp run (its options), once per program and process."""
    return run_program([program, "--PrintHelp"])


def parse_value(text: str) -> int | float | bool | str:
    """A command-line value as SEM stores it: an integer, a float, a boolean or text."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def program_options(help_text: str) -> dict[str, object]:
    """The program's options and defaults from its --PrintHelp: {name: default}, None where no
    default is printed (an empty one). SEM's own reading takes the last --word: of a line for the
    option's name, so an option whose help mentions another (--flowsOnly: "with --dumpFlows:
    ...") was read as that other one; here the name is the line's first word, and numbers stay
    integers where they are (--flows=2000, not SEM's --flows=2000.0)."""
    section = re.search(r"^Program (?:Options|Arguments):\n(.*?)(?:^\S|\Z)", help_text,
                        re.MULTILINE | re.DOTALL)
    if section is None:
        raise AnalysisError("--PrintHelp: no 'Program Options:' section")
    options: dict[str, object] = {}
    for line in section.group(1).splitlines():
        match = re.match(r"^\s+--(\w+):(.*?)(?:\[([^\[\]]*)\])?\s*$", line)
        if match:
            default = match.group(3)
            options[match.group(1)] = None if default is None else parse_value(default)
    return options


def program_option_names(program: Path) -> frozenset[str]:
    """A program's options, as its --PrintHelp lists them (run once per program and process)."""
    try:
        result = program_help(str(program))
        if result.returncode != 0:
            raise AnalysisError(f"exit status {result.returncode}")
        return frozenset(program_options(result.stdout))
    except (OSError, AnalysisError) as error:
        raise AnalysisError(f"{program} --PrintHelp: cannot list its options ({error})") from error


@functools.cache
def program_schemes(program: Path) -> dict[str, bool]:
    """The schemes a program's --scheme takes, in its registry's order (PfabricSchemeRegistry,
    then custom), each with whether it runs pFabric's queues: what its --listSchemes prints (one a
    line: name, 1 or 0, description, tab-separated). Run once per program and process."""
    try:
        result = run_program([str(program), "--listSchemes"])
        if result.returncode != 0:
            raise AnalysisError(f"exit status {result.returncode}")
        rows = [line.split("\t") for line in result.stdout.splitlines() if line]
        if not rows or any(len(row) != 3 or row[1] not in ("0", "1") for row in rows):
            raise AnalysisError("expected lines of name, 0 or 1, description")
        return {name: flag == "1" for name, flag, _ in rows}
    except (OSError, AnalysisError) as error:
        raise AnalysisError(f"{program} --listSchemes: cannot list its schemes ({error})") from error


def built_in_schemes(program: Path) -> dict[str, bool]:
    """A program's built-in schemes (its registry's entries, what --scheme=NAME alone runs), in
    its order, each with whether it runs pFabric's queues: program_schemes without the custom
    scheme, which is the parser of a scheme's parts rather than one."""
    return {name: queues for name, queues in program_schemes(program).items()
            if name != CUSTOM_SCHEME}
