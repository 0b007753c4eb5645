"""The y axis scales the figure commands draw on, in a module of their own so that the command
line can offer them without importing matplotlib (pfabric_analysis.figures draws them)."""

from __future__ import annotations

# Log by default: the baselines sit up to 40x above ideal while pFabric and Ideal differ by a few
# percent, and on a linear axis from 0 pFabric's points merge with Ideal's.
Y_SCALES = ("log", "linear")
DEFAULT_Y_SCALE = "log"
