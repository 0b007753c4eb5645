"""The memory allocator the module's runners give the simulation programs.

ns-3 allocates and frees packets, their buffers, tags and events at every packet hop. The
runners (./pfabric run and bench, pfabric-analysis sweep, ideal and flow-count) preload
mimalloc, from the pinned PyPI wheel cmeel-mimalloc, when it is installed; the doc's
"Memory allocator" section gives what it saves on each CPU kind. Results do not depend on the
allocator (the same fct.csv; tested), and every run's meta.json says which one served it.

PFABRIC_ALLOCATOR chooses: unset or "auto" preloads mimalloc when the wheel is installed,
"mimalloc" insists on it, "system" preloads nothing. A caller's own LD_PRELOAD is left alone.
In an ns-3 tree, the same for ./ns3 run:

    LD_PRELOAD=$(python3 -m pfabric_analysis.allocator) ./ns3 run pfabric-websearch
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

VARIABLE = "PFABRIC_ALLOCATOR"
CHOICES = ("auto", "mimalloc", "system")
WHEEL = "cmeel-mimalloc"
# The versioned name the wheel ships (libmimalloc.so.3): what a program would load by itself.
LIBRARY_NAME = re.compile(r"libmimalloc\.so\.\d+$")


class AllocatorError(ValueError):
    """PFABRIC_ALLOCATOR names no allocator, or one that is not installed."""


def choice(environ: Mapping[str, str]) -> str:
    """PFABRIC_ALLOCATOR's value, checked; "auto" when unset or empty."""
    value = environ.get(VARIABLE, "").strip() or "auto"
    if value not in CHOICES:
        raise AllocatorError(f"{VARIABLE}={value!r}: expected one of {', '.join(CHOICES)}")
    return value


def mimalloc_library() -> Path | None:
    """The mimalloc shared library of the installed wheel, or None (no wheel, or not Linux:
    preloading is LD_PRELOAD, a Linux dynamic loader feature)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        files = importlib.metadata.files(WHEEL) or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in files:
        if LIBRARY_NAME.search(file.name):
            path = Path(str(file.locate()))
            if path.is_file():
                return path
    return None


def preload(environ: Mapping[str, str]) -> Path | None:
    """The library to preload into a simulation program under `environ`, or None."""
    wanted = choice(environ)
    if wanted == "system" or environ.get("LD_PRELOAD"):
        return None
    library = mimalloc_library()
    if library is None and wanted == "mimalloc":
        raise AllocatorError(f"{VARIABLE}=mimalloc: the {WHEEL} wheel is not installed "
                             f"(pip install {WHEEL}), or this is not Linux")
    return library


def child_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """`environ` (default: this process's) with the allocator's preload added, for a child."""
    env = dict(os.environ if environ is None else environ)
    library = preload(env)
    if library is not None:
        env["LD_PRELOAD"] = str(library)
    return env


def main() -> int:
    """Print the library to preload (nothing when none), for LD_PRELOAD in an ns-3 tree."""
    try:
        library = preload(os.environ)
    except AllocatorError as error:
        print(f"pfabric-analysis: error: {error}", file=sys.stderr)
        return 2
    if library is not None:
        print(library)
    return 0


if __name__ == "__main__":
    sys.exit(main())
