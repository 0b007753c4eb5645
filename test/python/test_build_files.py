"""The three builds describe the same module: CMakeLists.txt (ns-3 >= 3.36 and standalone) and
wscript (waf, ns-3 <= 3.35) list the same files, and every source file is listed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CMAKE_KEYWORDS = {"LIBNAME", "SOURCE_FILES", "HEADER_FILES", "LIBRARIES_TO_LINK",
                  "TEST_SOURCES", "NAME"}


def cmake_calls(path: Path, function: str) -> list[dict[str, list[str]]]:
    """The keyword arguments of each call of a CMake function in a file."""
    calls = []
    for body in re.findall(rf"^{function}\((.*?)^\)", path.read_text(), re.DOTALL | re.MULTILINE):
        arguments: dict[str, list[str]] = {}
        keyword = None
        for word in body.split():
            if word in CMAKE_KEYWORDS:
                keyword = word
                arguments[keyword] = []
            elif keyword:
                arguments[keyword].append(word)
        calls.append(arguments)
    return calls


class FakeWafEnv:
    """A waf environment: attributes, item access and append_value."""

    DEFINES: list[str]  # what the wscript's append_value("DEFINES", ...) calls gathered

    def __init__(self, **values: object) -> None:
        self.__dict__.update(values)

    def __getitem__(self, key: str) -> object:
        return self.__dict__.get(key, "")

    def append_value(self, key: str, values: list[str]) -> None:
        self.__dict__.setdefault(key, []).extend(values)


class FakeWafNode:
    """A waf node of the module's source tree (build: its twin in the build tree)."""

    def __init__(self, path: Path, build: Path | None = None) -> None:
        self.path = path
        self.build = build

    def get_bld(self) -> FakeWafNode:
        assert self.build is not None, self.path
        return FakeWafNode(self.build)

    def make_node(self, name: str) -> FakeWafNode:
        return FakeWafNode(self.path / name)

    def mkdir(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)

    def write(self, text: str) -> None:
        self.path.write_text(text)

    def find_node(self, name: str) -> FakeWafNode:
        assert (self.path / name).is_file(), name
        return FakeWafNode(self.path / name)

    def find_dir(self, name: str) -> FakeWafNode:
        assert (self.path / name).is_dir(), name
        return FakeWafNode(self.path / name)

    def read(self) -> str:
        return self.path.read_text()

    def abspath(self) -> str:
        return str(self.path)


class FakeWafTarget:
    def __init__(self, name: str = "", dependencies: list[str] | None = None) -> None:
        self.name = name
        self.dependencies = dependencies or []
        self.source: list[str] | str = []
        self.env = FakeWafEnv()


class FakeWafContext:
    """Records what a wscript's build(bld) declares."""

    def __init__(self, directory: Path, build: Path) -> None:
        self.directory = directory
        self.build = build
        self.env = FakeWafEnv(ENABLE_EXAMPLES=True, VERSION="3.35")
        self.path = FakeWafNode(directory, build)
        self.targets: dict[str, FakeWafTarget] = {}
        self.programs: list[FakeWafTarget] = []

    def create_ns3_module(self, name: str, dependencies: list[str]) -> FakeWafTarget:
        return self.targets.setdefault("module", FakeWafTarget(name, dependencies))

    def create_ns3_module_test_library(self, name: str) -> FakeWafTarget:
        return self.targets.setdefault("test", FakeWafTarget(name))

    def create_ns3_program(self, name: str, dependencies: list[str]) -> FakeWafTarget:
        self.programs.append(FakeWafTarget(name, dependencies))
        return self.programs[-1]

    def __call__(self, features: str) -> FakeWafTarget:
        assert features == "ns3header"
        return self.targets.setdefault("headers", FakeWafTarget())

    def recurse(self, subdirectory: str) -> None:
        nested = run_wscript(self.directory / subdirectory, self.build / subdirectory)
        self.programs += nested.programs

    def fatal(self, message: str) -> None:
        raise WafError(message)


class WafError(Exception):
    """What bld.fatal raises."""


def run_wscript(directory: Path, build: Path) -> FakeWafContext:
    """Run the build(bld) of directory's wscript, its build tree in build."""
    scope: dict = {}
    # A wscript is Python, run as waf runs it.
    exec((directory / "wscript").read_text(), scope)  # noqa: S102
    context = FakeWafContext(directory, build)
    scope["build"](context)
    return context


def test_waf_defines_what_cmake_defines(tmp_path: Path) -> None:
    module = run_wscript(ROOT, tmp_path).targets["module"]
    defines = {d.split("=")[0] for d in module.env.DEFINES}
    cmake = (ROOT / "CMakeLists.txt").read_text()
    # With the cmake/ files it includes (the size bins' definitions live in one).
    included = re.findall(r"include\(\$\{CMAKE_CURRENT_SOURCE_DIR\}/(cmake/[\w.-]+\.cmake)\)", cmake)
    assert included, "CMakeLists.txt includes no cmake/ file: this test reads the wrong text"
    cmake += "".join((ROOT / name).read_text() for name in included)
    assert defines == set(re.findall(r"(PFABRIC_[A-Z0-9_]+)=", cmake))


# Where the library's sources and headers are: the model, the ns-3 helpers that install it, and
# the experiment harness with its command-line framework.
LIBRARY_DIRECTORIES = ("model", "helper", "helper/experiment")


def files(directory: str, suffix: str) -> set[str]:
    return {str(p.relative_to(ROOT)) for p in (ROOT / directory).glob(f"*{suffix}")}


def test_cmake_lists_every_source_header_and_test() -> None:
    (lib,) = cmake_calls(ROOT / "CMakeLists.txt", "build_lib")
    assert lib["LIBNAME"] == ["pfabric"]
    assert set(lib["SOURCE_FILES"]) == {path for directory in LIBRARY_DIRECTORIES
                                        for path in files(directory, ".cc")}
    assert set(lib["HEADER_FILES"]) == {path for directory in LIBRARY_DIRECTORIES
                                        for path in files(directory, ".h")}
    assert set(lib["TEST_SOURCES"]) == files("test", ".cc")


def included_module_headers(path: str) -> set[str]:
    """The module's headers a source file includes, by name."""
    return set(re.findall(r'^#include\s*"(?:ns3/)?(pfabric-[\w.-]+\.h)"', (ROOT / path).read_text(),
                          re.MULTILINE))


def test_helpers_do_not_use_the_experiment_harness() -> None:
    """helper/ holds the ns-3 helpers that install the model; the experiment harness and its
    command-line framework (helper/experiment/) build on them, never the other way round."""
    harness = {Path(path).name for path in files("helper/experiment", ".h")}
    users = sorted(f"{path}: {header}" for path in files("helper", ".cc") | files("helper", ".h")
                   for header in included_module_headers(path) & harness)
    assert users == []


def test_examples_hold_programs_only() -> None:
    """No library code under examples/: the programs, the Python example and the build files."""
    build_files = ("CMakeLists.txt", "wscript")
    others = sorted(p.name for p in (ROOT / "examples").iterdir()
                    if p.is_file() and p.suffix not in (".cc", ".py")
                    and p.name not in build_files)
    assert others == []


def test_model_does_not_use_presets() -> None:
    """The published setups are applied by the helpers (helper/pfabric-preset.h): no model class
    includes the presets or reads one, its attribute defaults are its own."""
    users = sorted(path for path in files("model", ".cc") | files("model", ".h")
                   if re.search(r'#include\s*"(ns3/)?pfabric-preset\.h"|PfabricPreset\b',
                                (ROOT / path).read_text()))
    assert users == []


def test_public_headers_are_named_pfabric() -> None:
    (lib,) = cmake_calls(ROOT / "CMakeLists.txt", "build_lib")
    assert all(Path(h).name.startswith("pfabric-") for h in lib["HEADER_FILES"])


def test_wscript_matches_cmake(tmp_path: Path) -> None:
    (lib,) = cmake_calls(ROOT / "CMakeLists.txt", "build_lib")
    waf = run_wscript(ROOT, tmp_path)
    assert waf.targets["module"].name == "pfabric"
    assert waf.targets["module"].source == lib["SOURCE_FILES"]
    assert waf.targets["headers"].source == lib["HEADER_FILES"]
    assert waf.targets["test"].source == lib["TEST_SOURCES"]
    cmake_dependencies = [d.removeprefix("${lib").removesuffix("}")
                          for d in lib["LIBRARIES_TO_LINK"]]
    assert waf.targets["module"].dependencies == cmake_dependencies


def test_examples_match_between_cmake_and_wscript(tmp_path: Path) -> None:
    cmake = {call["NAME"][0]: call for call in
             cmake_calls(ROOT / "examples" / "CMakeLists.txt", "build_lib_example")}
    waf = {program.name: program for program in run_wscript(ROOT, tmp_path).programs}
    assert set(cmake) == set(waf)
    assert set(cmake) == {Path(p).stem for p in files("examples", ".cc")}
    for name, call in cmake.items():
        assert call["SOURCE_FILES"] == [waf[name].source]
        linked = {d.removeprefix("${lib").removesuffix("}") for d in call["LIBRARIES_TO_LINK"]}
        assert linked | {"pfabric"} == set(waf[name].dependencies)


def test_every_example_is_run_by_test_py() -> None:
    scope: dict = {}
    # ns-3's list of examples is Python, read as test.py reads it.
    exec((ROOT / "test" / "examples-to-run.py").read_text(), scope)  # noqa: S102
    listed = {command.split()[0] for command, _, _ in scope["cpp_examples"]}
    assert listed == {Path(p).stem for p in files("examples", ".cc")}
