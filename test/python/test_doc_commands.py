"""Every command of README.md and doc/*.rst runs, so that none can go stale: the README's sh
blocks and the docs' literal blocks that hold shell commands, collected afresh on every run (a
command added to any of these files is run from then on, with no change here).

The commands run in order, block after block, through bash, in a scratch directory laid out like
the module (its pfabric, .venv, build, examples, bench, workloads and analysis are links), so
that what a command writes under results/ is there for the commands after it. Commands that are
long as written run with a mechanical shrinking substitution (shrink), the same for every
command:
- every flow count N above SMALL_FLOWS (--flows=N, --flows N, --set flows=N, and flowsN in a
  run directory's name) becomes SMALL_FLOWS; an experiment program run without --flows (by
  ./pfabric run or ./ns3 run, when its --PrintHelp lists --flows), examples/pfabric-python.py
  and a sem campaign without one get --flows=SMALL_FLOWS;
- ./pfabric bench runs at its smoke size (--size=smoke in place of --quick), with
  --websearch-flows shrunk as above;
- pfabric-analysis reproduce runs at its smoke size (--size smoke: 6 web search and 2 data mining
  flows per point, loads 0.1 and 0.8, every scheme, then the figures);
- pfabric-analysis flow-count runs two counts (10,20), one load (0.5), two runs, web search only;
- placeholders for another machine's files: FLOWS.csv is the flow list an earlier README command
  wrote (flows.csv), ~/ns-3.37 and sem's --ns3 are the ns-3 tree of PFABRIC_NS3_TREE (without
  one, ~/ns-3.37/build is this build), and ../old/build/bin (a previous build) is this build's
  bin/.
Commands that need an ns-3 tree (./ns3 run, pfabric-analysis sem) run in .ci/in-tree, which sets
PFABRIC_NS3_TREE (test_the_commands_that_need_an_ns3_tree); the others that are not run here are
listed in NOT_RUN with the reason. Measured: test_every_command_runs adds about 2 minutes to
./pfabric test on the shared 2-core machine (load average about 6; 47 s of it the three
pfabric-python.py commands, each loading the bindings); test_the_commands_that_need_an_ns3_tree
adds about 55 s to .ci/in-tree (debug tree)."""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SMALL_FLOWS = 20
# The benchmark scenario a documented `./pfabric bench` without --only runs (test_bench runs them all).
BENCH_SCENARIO = "websearch-sigcomm13"
# The module's entries a command may name, linked into the scratch directory.
LINKED = ("pfabric", ".venv", "build", "examples", "bench", "workloads", "analysis", "doc",
          "requirements.txt")
NEEDS_NS3_TREE = re.compile(r"^\./ns3 run\b|pfabric-analysis sem\b")
# Commands not run by these tests, and why. Each pattern is anchored at a command's start.
NOT_RUN = [
    (r"\./pfabric test\b", "the command that runs this test"),
    (r"(cd|git clone)\b", "setting up an ns-3 tree: .ci/in-tree unpacks one and copies the "
                          "module into contrib/pfabric"),
    (r"\./ns3 (configure|build)\b", ".ci/in-tree configures and builds its ns-3.37 trees with its "
                                    "own flags (module selection, -Werror)"),
    (r"\./test\.py\b", ".ci/in-tree runs ./test.py -s pfabric"),
    (r"\./waf\b", "no waf tree (ns-3.35 and earlier) here; wscript is checked by "
                  "test_build_files.py"),
    (r"git (tag|push)\b", "making a release (doc, Releases and citation) is the maintainer's; "
                           "test_release.py checks the files it tags"),
]
SHELL_START = re.compile(r"^(\./|\.venv/|cd |git |for |python|pfabric-analysis )")


def readme_blocks(text: str) -> list[list[str]]:
    """The README's sh blocks, each a list of commands (continuations joined, comments out)."""
    return [commands(block)
            for block in re.findall(r"^```sh\n(.*?)^```", text, re.DOTALL | re.MULTILINE)]


def doc_blocks(text: str) -> list[list[str]]:
    """The rst literal blocks (after a line ending in ::) whose first line is a shell command."""
    blocks = []
    for match in re.finditer(r"::\n\n((?:[ \t]+\S.*\n|[ \t]*\n)+)", text):
        lines = match.group(1).splitlines()
        indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
        block = "\n".join(line[indent:] for line in lines)
        if SHELL_START.match(block.lstrip()):
            blocks.append(commands(block))
    return blocks


def commands(block: str) -> list[str]:
    found = []
    pending: list[str] = []
    for line in block.replace("\\\n", " ").splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        if line and not line.startswith("#"):
            pending.append(re.sub(r"\s+", " ", line))
            # A compound command (a for loop over several lines) is one command: lines join, by
            # newlines, until bash can parse them.
            if complete("\n".join(pending)):
                found.append("\n".join(pending))
                pending = []
    assert not pending, f"an incomplete shell command: {pending}"
    return found


@cache
def complete(command: str) -> bool:
    """Whether bash parses a command as complete (bash -n: syntax only, nothing runs)."""
    return subprocess.run(["bash", "-n", "-c", command], capture_output=True).returncode == 0


def doc_files() -> list[str]:
    """The reStructuredText documents, as paths relative to the repository."""
    return [str(path.relative_to(ROOT)) for path in sorted((ROOT / "doc").glob("*.rst"))]


def all_blocks() -> list[tuple[str, list[str]]]:
    return ([("README.md", block) for block in readme_blocks((ROOT / "README.md").read_text())]
            + [(name, block) for name in doc_files()
               for block in doc_blocks((ROOT / name).read_text())])


def not_run_reason(command: str) -> str | None:
    for pattern, reason in NOT_RUN:
        if re.match(pattern, command):
            return reason
    return None


@cache
def takes_flows(program: str) -> bool:
    """Whether an example of the build lists --flows in its --PrintHelp."""
    build = os.environ.get("PFABRIC_BUILD_DIR", str(ROOT / "build"))
    path = Path(build) / "bin" / program
    if not path.exists():
        return False
    listed = subprocess.run([str(path), "--PrintHelp"], capture_output=True, text=True).stdout
    return re.search(r"^\s*--flows:", listed, re.MULTILINE) is not None


def tree_takes_flows(tree: Path, program: str) -> bool:
    """Whether a program of an ns-3 tree's build lists --flows in its --PrintHelp."""
    found = [path for path in (tree / "build" / "contrib").rglob(f"ns3*-{program}*")
             if path.is_file() and os.access(path, os.X_OK)
             and re.fullmatch(rf"ns3[.\d]*-{re.escape(program)}(-\w+)?", path.name)]
    if not found:
        return False
    libraries = dict(os.environ, LD_LIBRARY_PATH=str(tree / "build" / "lib"))
    listed = subprocess.run([str(found[0]), "--PrintHelp"], capture_output=True, text=True,
                            env=libraries).stdout
    return re.search(r"^\s*--flows:", listed, re.MULTILINE) is not None


def shrink(command: str, ns3_tree: str | None = None, flows_option=takes_flows) -> str:
    """The command with the module docstring's substitutions applied."""
    small = str(SMALL_FLOWS)

    def fewer(match: re.Match) -> str:
        return match.group(1) + (small if int(match.group(2)) > SMALL_FLOWS else match.group(2))

    command = re.sub(r"(--flows[= ]|--set flows=|--websearch-flows[= ])(\d+)", fewer, command)
    command = re.sub(r"(?<=-)(flows)(\d+)(?=[-*/\s]|$)",
                     lambda m: m.group(1) + (small if int(m.group(2)) > SMALL_FLOWS
                                             else m.group(2)), command)
    if "--flows" not in command and "flows=" not in command:
        run = re.match(r"^(\./pfabric run (\S+))( --)?(.*)$", command)
        if run and flows_option(run.group(2)):
            command = f"{run.group(1)} --{run.group(4)} --flows={small}"
        ns3 = re.match(r'^\./ns3 run ("?)(\S+)(.*?)"?$', command)
        if ns3 and flows_option(ns3.group(2)):
            command = f'./ns3 run --no-build "{ns3.group(2)}{ns3.group(3)} --flows={small}"'
        if "examples/pfabric-python.py" in command:
            command += f" --flows {small}"
        if "pfabric-analysis sem " in command:
            command += f" --set flows={small}"
    if command.startswith("./ns3 run") and "--no-build" not in command:
        command = command.replace("./ns3 run", "./ns3 run --no-build", 1)
    if command.startswith("./pfabric bench"):
        command = command.replace(" --quick", "") + " --size=smoke"
        # Every scenario at smoke size is test_bench's job; here one shows the options work.
        if "--only" not in command:
            command += f" --only {BENCH_SCENARIO}"
    command = re.sub(r"(pfabric-analysis reproduce .*)$", r"\1 --size smoke", command)
    if "pfabric-analysis flow-count" in command:
        for option, value in (("--counts", "10,20"), ("--loads", "0.5"), ("--runs", "1,2"),
                              ("--workloads", "websearch")):
            if option not in command:
                command += f" {option} {value}"
    command = command.replace("FLOWS.csv", "flows.csv")
    command = command.replace("../old/build/bin", "build/bin")
    if ns3_tree:
        command = re.sub(r"--ns3 \S+", f"--ns3 {ns3_tree}", command)
        command = command.replace("~/ns-3.37", ns3_tree)
    else:
        command = command.replace("~/ns-3.37/build", "build")
    return command


def scratch(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        (directory / name).symlink_to(ROOT / name)
    return directory


def run_commands(lines: list[str], cwd: Path, env: dict[str, str]) -> None:
    for line in lines:
        result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", line], cwd=cwd, env=env,
                                capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, \
            f"{line}\nexit status {result.returncode}\n{result.stdout[-1500:]}\n" \
            f"{result.stderr[-1500:]}"


def test_the_commands_are_collected_from_both_files() -> None:
    blocks = all_blocks()
    everything = [command for _, block in blocks for command in block]
    sources = {source for source, _ in blocks}
    assert {"README.md", "doc/pfabric.rst"} <= sources <= {"README.md", *doc_files()}
    assert "doc/performance.rst" in doc_files()
    for start in ("./pfabric run", ".venv/bin/pfabric-analysis sweep", "./pfabric bench",
                  ".venv/bin/python examples/pfabric-python.py", "./ns3 run",
                  ".venv/bin/pfabric-analysis sem"):
        assert any(command.startswith(start) for command in everything), start
    # C++ and Python literal blocks of the doc are not shell commands.
    assert not any(command.startswith(("Pfabric", "from ", "ns =")) for command in everything)


def test_the_substitutions() -> None:
    def flows(program: str) -> bool:
        return program in ("pfabric-websearch", "pfabric-datamining")

    assert shrink("./pfabric run pfabric-websearch", flows_option=flows) == \
        "./pfabric run pfabric-websearch -- --flows=20"
    assert shrink("./pfabric run pfabric-websearch -- --scheme=tcp --load=0.8",
                  flows_option=flows) == \
        "./pfabric run pfabric-websearch -- --scheme=tcp --load=0.8 --flows=20"
    assert shrink("./pfabric run pfabric-datamining -- --preset=sigcomm13 --flows=10000") == \
        "./pfabric run pfabric-datamining -- --preset=sigcomm13 --flows=20"
    assert shrink("./pfabric run pfabric-fabric -- --PrintHelp", flows_option=flows) == \
        "./pfabric run pfabric-fabric -- --PrintHelp"
    assert shrink(".venv/bin/pfabric-analysis summarize "
                  "results/websearch-hotnets12-pfabric-load0.6-flows2000-seed1-run1") == \
        (".venv/bin/pfabric-analysis summarize "
         "results/websearch-hotnets12-pfabric-load0.6-flows20-seed1-run1")
    assert shrink("for k in 0 1; do ./pfabric run x -- --flows=500 --priorityLevels=$k; done; "
                  "ls results/a-flows500-*seed1") == \
        "for k in 0 1; do ./pfabric run x -- --flows=20 --priorityLevels=$k; done; " \
        "ls results/a-flows20-*seed1"
    assert shrink("./ns3 run pfabric-websearch", flows_option=flows) == \
        './ns3 run --no-build "pfabric-websearch --flows=20"'
    assert shrink("./pfabric bench --quick") == \
        f"./pfabric bench --size=smoke --only {BENCH_SCENARIO}"
    assert shrink("./pfabric bench --only a --websearch-flows 2000 --against ../old/build/bin") \
        == "./pfabric bench --only a --websearch-flows 20 --against build/bin --size=smoke"
    assert shrink(".venv/bin/pfabric-analysis reproduce --quick") == \
        ".venv/bin/pfabric-analysis reproduce --quick --size smoke"
    assert shrink(".venv/bin/pfabric-analysis sem --ns3 ~/ns-3.37 --set flows=500", "/t") == \
        ".venv/bin/pfabric-analysis sem --ns3 /t --set flows=20"
    assert shrink(".venv/bin/python examples/pfabric-python.py") == \
        ".venv/bin/python examples/pfabric-python.py --flows 20"
    assert shrink("./pfabric run x -- --flows=5") == "./pfabric run x -- --flows=5"
    assert not_run_reason("./pfabric test --sanitize")
    assert not_run_reason("./pfabric run pfabric-websearch") is None


def commands_to_run(source: str) -> list[str]:
    """A document's commands that need no ns-3 tree, shrunk, in order."""
    return [shrink(command) for name, block in all_blocks() if name == source
            for command in block
            if not not_run_reason(command) and not NEEDS_NS3_TREE.search(command)]


def test_the_documents_have_commands_to_run() -> None:
    assert sum(len(commands_to_run(source)) for source in ("README.md", *doc_files())) >= 25


# A test per document, each in a directory of its own (its commands build on each other in
# order, never on another document's), so that the test workers share them: in one test they
# were 302 s of one worker, the slowest test of a cold CI run on an AMD EPYC VM.
@pytest.mark.parametrize("source", [source for source in ("README.md", *doc_files())
                                    if commands_to_run(source)])
def test_every_command_runs(tmp_path: Path, source: str) -> None:
    """Every command of the README or a doc that needs no ns-3 tree, shrunk, in order."""
    if not os.environ.get("PFABRIC_BUILD_DIR"):
        pytest.skip("needs the build: run through ./pfabric test")
    if os.environ.get("PFABRIC_SANITIZE"):
        pytest.skip("the commands run the plain build: ./pfabric test runs them")
    env = dict(os.environ)
    env.pop("PFABRIC_BUILD_DIR")  # the commands as a user types them: the build of the module
    run_commands(commands_to_run(source), scratch(tmp_path / source.replace("/", "-")), env)


def test_the_commands_that_need_an_ns3_tree(tmp_path: Path) -> None:
    """./ns3 run and pfabric-analysis sem commands, shrunk, in the tree of PFABRIC_NS3_TREE
    (.ci/in-tree sets it to the ns-3.37 tree it has built)."""
    tree = os.environ.get("PFABRIC_NS3_TREE")
    if not tree:
        pytest.skip("needs an ns-3 tree with this module built: PFABRIC_NS3_TREE (.ci/in-tree)")
    work = scratch(tmp_path / "module")
    ran = 0
    for _, block in all_blocks():
        for command in block:
            if not NEEDS_NS3_TREE.search(command) or not_run_reason(command):
                continue
            if command.startswith("./ns3 run"):
                line = shrink(command, tree, lambda name: tree_takes_flows(Path(tree), name))
                run_commands([line], Path(tree), dict(os.environ))
            else:
                run_commands([shrink(command, tree)], work, dict(os.environ))
            ran += 1
    assert ran >= 2
