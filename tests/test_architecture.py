"""The package's imports point one way: no import circle between two modules, and no module reaching up a layer.

Every import counts: at the top of a module, inside a function (the lazy imports that keep ``bitdoku --help``
fast) and under ``TYPE_CHECKING``. A lazy import up a layer still ties the lower module to the upper one; the
cure is to move the shared piece down (or into a small module of its own), as ``cli/plan.py``,
``logic/arrays.py`` and ``StepLike`` in ``logic/candidates.py`` did. docs/ARCHITECTURE.md draws the layers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "bitdoku"

#: The layers, bottom first: a module may import from its own top-level package (``logic`` from ``logic``) and
#: from the layers below its own, never from its own layer's other packages or from above. ``bitdoku`` is the
#: package's ``__init__``, the public facade: only the command line and the web layer may go through it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors",),
    ("shape", "compile_clock", "data"),
    ("constraints",),
    ("geometry",),
    ("formats", "kernels"),
    ("grid", "timelimit"),
    ("engines", "reader"),
    ("batch",),
    ("parallel",),
    ("solver",),
    ("solution_digits",),
    ("pipeline", "logic", "experiment", "benchmark", "photo"),
    ("generate",),
    ("warmup",),
    ("bitdoku",),
    ("web",),
    ("cli",),
    ("__main__",),
)
RANK = {name: rank for rank, layer in enumerate(LAYERS) for name in layer}


def module_names(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name, not ``.__init__``)."""
    names = {}
    for path in package.rglob("*.py"):
        parts = ("bitdoku", *path.relative_to(package).with_suffix("").parts)
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imports_of(module: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The package's modules that ``module`` imports anywhere in its text (a ``from x import y`` of a submodule
    ``y`` counts as an import of ``x.y``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, path, node)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # ``import bitdoku.logic.step as s`` -> the module
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, *([node.module] if node.module else [])])


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    modules = module_names(package)
    return {module: imports_of(module, path, modules) for module, path in modules.items()}


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a loop (strongly connected components
    of more than one module; Tarjan's algorithm, iterative so that a deep chain cannot overflow the stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def layer_of(module: str) -> str:
    """The top-level name a module's layer is looked up by: ``bitdoku.logic.step`` -> ``logic``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def upward_imports(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Each import that reaches into its own layer's other packages or up a layer, as 'a -> b'."""
    wrong = []
    for module, targets in graph.items():
        for target in targets:
            source, destination = layer_of(module), layer_of(target)
            if source != destination and RANK[destination] >= RANK[source]:
                wrong.append(f"{module} -> {target}")
    return sorted(wrong)


GRAPH = import_graph()


def test_no_two_modules_import_each_other_round_a_circle():
    assert circles(GRAPH) == []


def test_every_package_has_a_layer():
    assert {layer_of(module) for module in GRAPH} <= set(RANK)


def test_imports_point_down_the_layers():
    assert upward_imports(GRAPH) == []


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set(), "c": {"b"}}, []),
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
])
def test_the_circle_finder_finds_circles(graph, expected):
    assert sorted(circles(graph)) == expected


def test_the_layer_check_finds_an_import_up_a_layer():
    assert upward_imports({"bitdoku.kernels.x": {"bitdoku.solver"}, "bitdoku.solver": {"bitdoku.kernels.x"}}) == [
        "bitdoku.kernels.x -> bitdoku.solver"]
    same_layer = {"bitdoku.formats.line": {"bitdoku.kernels.jit"}}  # formats and kernels share a layer
    assert upward_imports(same_layer) == ["bitdoku.formats.line -> bitdoku.kernels.jit"]


def test_the_graph_sees_lazy_and_type_only_imports(tmp_path):
    package = tmp_path / "bitdoku"
    (package / "logic").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "logic" / "__init__.py").write_text("")
    (package / "logic" / "a.py").write_text("def f():\n    from bitdoku.logic import b\n")
    type_only = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import f\n"
    (package / "logic" / "b.py").write_text(type_only)
    graph = import_graph(package)
    assert graph["bitdoku.logic.a"] == {"bitdoku.logic.b"} and graph["bitdoku.logic.b"] == {"bitdoku.logic.a"}
    assert circles(graph) == [["bitdoku.logic.a", "bitdoku.logic.b"]]
