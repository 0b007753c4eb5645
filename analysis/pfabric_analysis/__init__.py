"""Analysis of pfabric ns-3 runs."""

from pathlib import Path


def _module_version() -> str:
    """The module's version: the repository's VERSION file, its one home."""
    version_file = Path(__file__).resolve().parents[2] / "VERSION"
    return version_file.read_text().strip() if version_file.exists() else "0+unknown"


__version__ = _module_version()
