"""Analysis of pfabric ns-3 runs."""

import functools
import subprocess
from pathlib import Path

# The repository holding this package when it is installed from a checkout (editable), as
# ./pfabric installs it; VERSION and .git are found there.
REPOSITORY = Path(__file__).resolve().parents[2]


def _module_version() -> str:
    """The module's version: the repository's VERSION file, its one home."""
    version_file = REPOSITORY / "VERSION"
    return version_file.read_text().strip() if version_file.exists() else "0+unknown"


__version__ = _module_version()


@functools.cache
def git_commit(repository: Path | None = None) -> str | None:
    """The commit of the module's checkout (by default the one this package runs from), with
    '-dirty' appended when tracked files differ from it (what was run is then not that commit);
    None outside a git checkout of its own (a source tarball, a copy in an ns-3 tree without
    .git), where the version alone is known. The C++ builds record the same
    (cmake/pfabric-git-commit.cmake, wscript)."""
    repository = repository or REPOSITORY
    if not (repository / "VERSION").exists() or not (repository / ".git").exists():
        return None
    try:
        # --exclude='*': no tag names, the full commit hash whatever is tagged
        result = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=40",
                                 "--exclude=*"], cwd=repository, capture_output=True, text=True,
                                timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    return result.stdout.strip() or None


def module_provenance() -> dict[str, str | None]:
    """What an output written by this package records of the module: version and git commit."""
    return {"module_version": __version__, "git_commit": git_commit()}
