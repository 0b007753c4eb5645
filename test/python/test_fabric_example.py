"""The fabric helpers through the pfabric-fabric example: bad shapes and rates stop at setup with
a message naming the parameter; the paper-sized fabrics build (the example prints how long it
took: the build-time benchmark)."""

from __future__ import annotations

import re

import pytest

from conftest import RunExample


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--topology=fattree", "--k=5"],
         "PfabricFatTreeHelper: k must be even and at least 2, got k = 5"),
        (["--topology=fattree", "--k=0"],
         "PfabricFatTreeHelper: k must be even and at least 2, got k = 0"),
        (["--topology=single", "--hosts=0"],
         "PfabricSingleSwitchHelper: hosts must be 2 to 254, got 0"),
        (["--topology=leafspine", "--hostsPerLeaf=0"],
         "PfabricLeafSpineHelper: hostsPerLeaf must be 1 to 254, got 0"),
        (["--topology=leafspine", "--leaves=0"],
         "PfabricLeafSpineHelper: leaves must be 1 to 256, got 0"),
        (["--topology=leafspine", "--hostsPerLeaf=16", "--spines=3"],
         "PfabricLeafSpineHelper: spines must divide hostsPerLeaf (16), got spines = 3"),
        (["--hostRate=0Gbps"], "--hostRate=0Gbps: expected a positive rate such as 10Gbps"),
        (["--topology=leafspine", "--fabricRate=0bps"],
         "--fabricRate=0bps: expected a positive rate such as 10Gbps"),
        (["--topology=ring"], "--topology=ring: expected fattree, leafspine or single"),
        # A time must say its unit: ns-3 took --linkDelay=1 as 1 s, a second per link.
        (["--linkDelay=1"], "--linkDelay=1: expected a time with a unit (ns, us, ms or s), e.g. 1ms"),
        (["--hostDelay=2 us"], "--hostDelay=2 us: expected a time with a unit"),
    ],
)
def test_bad_parameter_stops_with_its_name(run_example: RunExample, arguments: list[str],
                                           message: str) -> None:
    result = run_example("pfabric-fabric", *arguments)
    # One line and status 1 (a bad shape or rate stopped ns-3 in an abort of three lines).
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pfabric-fabric: error: "), result.stderr
    assert message in lines[0]
    assert "built in" not in result.stdout


@pytest.mark.parametrize(
    ("arguments", "hosts", "switches", "links"),
    [
        (["--topology=leafspine"], 144, 13, 144 + 36),  # sigcomm13: 9 x 16 hosts, 4 spines
        (["--topology=fattree", "--k=8"], 128, 80, 384),
        (["--topology=fattree"], 54, 45, 162),  # hotnets12: k = 6
    ],
)
def test_paper_fabrics_build(run_example: RunExample, arguments: list[str], hosts: int,
                             switches: int, links: int) -> None:
    result = run_example("pfabric-fabric", *arguments)
    assert result.returncode == 0, result.stderr
    shape = re.search(r"(\d+) hosts, (\d+) switches, (\d+) links; built in ([0-9.e-]+) s",
                      result.stdout)
    assert shape, result.stdout
    assert tuple(map(int, shape.groups()[:3])) == (hosts, switches, links)
    print(f"{' '.join(arguments)}: built in {float(shape.group(4)):.3f} s")


def test_sigcomm13_base_rtts_are_the_published_ones_plus_framing(run_example: RunExample) -> None:
    # pfabric-setups.md: 14.68 us between racks, 13.26 us inside a rack, for 1500 B packets and
    # 40 B ACKs; the fabric's links serialise 2 B of framing with each packet (PPP's, as ns-3's
    # point-to-point links).
    result = run_example("pfabric-fabric", "--topology=leafspine")
    rtts = dict(re.findall(r"\((?:[0-9.]+), ([a-z ,]+), \d+ links\): base RTT \+([0-9.]+)us",
                           result.stdout))
    assert abs(float(rtts["same rack"]) - 13.26) < 0.02
    assert abs(float(rtts["other rack, same pod"]) - 14.68) < 0.02
