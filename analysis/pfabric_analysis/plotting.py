"""The plotting kit every figure module draws and writes with: the schemes' looks, the style, a
figure on its own canvas, log axes with plain numbers, and a figure set's files rendered the same
way every time (no timestamps), so that the same data gives the same bytes.

figures.py (Figures 2-4 of the paper), compare.py (cdf, compare), levels.py, incast.py,
deadlines.py and classes.py share it: a scheme keeps its colour and marker, and a figure its
fonts, in every picture the package draws.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import matplotlib
import pandas as pd
from matplotlib import ticker
# Figures are drawn on Agg canvases directly, never through pyplot: no window, no global state.
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.typing import RcKeyType

from pfabric_analysis import large_flows
from pfabric_analysis.files import write_files

# The paper's five schemes as the figures present them: scheme name in meta.json -> legend name
# in the paper, and a fixed look, in the paper's order; second_color and second_marker: the look
# of a scheme's second line on one figure (deadlines: the remaining-size priority beside EDF).
# The one table of scheme names the analysis keeps, and a choice of presentation only: which
# schemes there are is the programs' (their --listSchemes) and each run's (its meta.json), and a
# scheme not here is drawn all the same (scheme_looks). reproduce runs these: the paper's figures.
SCHEMES: dict[str, dict[str, str]] = {
    "tcp": {"label": "TCP-DropTail", "color": "#1f77b4", "marker": "o", "linestyle": "-"},
    "dctcp": {"label": "DCTCP", "color": "#d62728", "marker": "s", "linestyle": "-"},
    "pfabric": {"label": "MinTCP+pFabric", "color": "#2ca02c", "marker": "^", "linestyle": "-",
                "second_color": "#8c564b", "second_marker": "v"},
    "linerate": {"label": "LineRate+pFabric", "color": "#9467bd", "marker": "D", "linestyle": "-",
                 "second_color": "#e377c2", "second_marker": "d"},
    "ideal": {"label": "Ideal", "color": "#000000", "marker": "x", "linestyle": "--"},
}
# Custom schemes (--scheme=custom), known by their labels: after the paper's, in label order, each
# the next of these colours and markers (none of the paper's), dash-dotted.
CUSTOM_COLORS = ("#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f")
CUSTOM_MARKERS = ("v", "P", "X", "*", "h", "<")
# Ideal over a longer run to completion (pfabric_analysis.large_flows, the (10MB,inf) panels of a
# steady-state figure): right after Ideal, in count order, greys getting lighter, dotted.
IDEAL_COUNT_COLORS = ("0.35", "0.6")
IDEAL_COUNT_MARKERS = ("+", "d")
# Readable when the figure is printed at its own size (a column or page of a paper).
STYLE: dict[RcKeyType, Any] = {"font.size": 9, "axes.titlesize": 9, "axes.labelsize": 9, "xtick.labelsize": 8,
                                "ytick.labelsize": 8, "legend.fontsize": 8, "lines.linewidth": 1.3,
                                "lines.markersize": 4.5, "axes.grid": True, "grid.alpha": 0.3,
                                "pdf.fonttype": 42}


def scheme_looks(schemes: Iterable[str]) -> dict[str, dict[str, str]]:
    """Each scheme's legend name and look, in the order figures and tables show them: the paper's
    schemes as SCHEMES, then custom labels sorted, each with the next CUSTOM_COLORS and
    CUSTOM_MARKERS (so a label keeps its look wherever the same schemes are drawn)."""
    present = set(schemes)
    looks = {scheme: look for scheme, look in SCHEMES.items() if scheme in present}
    counted = sorted((count, scheme) for scheme in present
                     if (count := large_flows.ideal_count(scheme)) is not None)
    for i, (count, scheme) in enumerate(counted):
        looks[scheme] = {"label": large_flows.ideal_count_label(count),
                         "color": IDEAL_COUNT_COLORS[i % len(IDEAL_COUNT_COLORS)],
                         "marker": IDEAL_COUNT_MARKERS[i % len(IDEAL_COUNT_MARKERS)],
                         "linestyle": ":"}
    for i, label in enumerate(sorted(present - set(SCHEMES) - {scheme for _, scheme in counted})):
        looks[label] = {"label": label, "color": CUSTOM_COLORS[i % len(CUSTOM_COLORS)],
                        "marker": CUSTOM_MARKERS[i % len(CUSTOM_MARKERS)], "linestyle": "-."}
    return looks


def new_figure(width: float, height: float) -> Figure:
    """A figure of `width` x `height` inches on its own Agg canvas, laid out by matplotlib's
    constrained layout (the legend outside the panels takes its room)."""
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def log_axis(axis) -> None:
    """A log scale on an axis of a panel, with plain numbers at 1, 2 and 5 times the powers of
    ten (1, 2, 5, 10 rather than 10^0, 2 x 10^0, ...)."""
    if axis is axis.axes.xaxis:
        axis.axes.set_xscale("log")
    else:
        axis.axes.set_yscale("log")
    axis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


def render(figure: Figure, fmt: str) -> bytes:
    """The figure as PNG or PDF bytes, without timestamps, so the same data gives the same file."""
    metadata = {"CreationDate": None} if fmt == "pdf" else {"Software": None}
    buffer = io.BytesIO()
    with matplotlib.rc_context(STYLE):
        figure.savefig(buffer, format=fmt, dpi=200, metadata=metadata)
    return buffer.getvalue()


def number(value: float) -> str:
    """A table's number: three decimals, n/a for an undefined one (NaN)."""
    return "n/a" if math.isnan(value) else f"{value:.3f}"


def document_bytes(document: dict) -> bytes:
    """A provenance document as the JSON file of a figure set (indented, a newline at the end;
    paths and other objects as their text)."""
    return (json.dumps(document, indent=2, default=str) + "\n").encode()


def write_figure_set(out_dir: Path, name: str, figure: Figure, table: pd.DataFrame,
                     markdown: str, document: bytes) -> list[Path]:
    """One sub-command's files into out_dir: NAME.png and NAME.pdf (the figure), NAME.csv (the
    table), NAME.md (markdown) and NAME.json (the provenance document, already serialised)."""
    names = [f"{name}.{suffix}" for suffix in ("png", "pdf", "csv", "md", "json")]
    outputs = dict(zip(names, (render(figure, "png"), render(figure, "pdf"),
                               table.to_csv(index=False).encode(), markdown.encode(), document)))
    return write_files(out_dir, outputs, owned_names=names)
