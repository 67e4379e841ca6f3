"""Imports run one way (model → protocols → answer → sources → live → ui → cli) and never in a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "inspector"

# Lowest first. A module may import its own layer or a lower one, never a higher one. The first matching
# prefix names a module's layer ("inspector" alone is the package's __init__: the version).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "model",
        (
            "inspector",
            "inspector.model",
            "inspector.textsafe",
            "inspector.timefmt",
            "inspector.smallfile",
            "inspector.userpath",
            "inspector.calltext",
            "inspector.calljson",
            "inspector.tool_figures",
        ),
    ),
    ("protocols", ("inspector.protocols",)),
    ("answer", ("inspector.answer",)),
    ("sources", ("inspector.sources",)),
    ("live", ("inspector.live", "inspector.room", "inspector.demo")),
    ("ui", ("inspector.ui", "inspector.config", "inspector.themes")),
    ("cli", ("inspector.cli", "inspector.__main__")),
]
RANK = {name: rank for rank, (name, _) in enumerate(LAYERS)}


def layer_of(module: str) -> str:
    best = ""
    found = ""
    for name, prefixes in LAYERS:
        for prefix in prefixes:
            inside = module == prefix or (prefix != "inspector" and module.startswith(prefix + "."))
            if inside and len(prefix) > len(best):
                best, found = prefix, name
    assert found, f"{module} is in no layer: add it to LAYERS in {Path(__file__).name}"
    return found


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: set[str], *, top_level_only: bool | None) -> set[str]:
    """The inspector modules ``name`` imports: every import (False), those run when it is imported (True),
    or those that can run at all, inside functions too (None)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    nodes: list[ast.AST]
    if top_level_only:
        nodes = [n for n in tree.body if not _type_checking_block(n)]
        nodes = [sub for n in nodes for sub in _not_in_functions(n)]
    elif top_level_only is None:  # every import that can run: lazy ones too, not those for the type checker
        nodes = [sub for n in tree.body if not _type_checking_block(n) for sub in _run_anywhere(n)]
    else:
        nodes = list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
        found.update(t for t in targets if t in known and t != name)
    return found


def _type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _not_in_functions(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return []
    out = [node]
    for child in ast.iter_child_nodes(node):
        if not _type_checking_block(child):
            out.extend(_not_in_functions(child))
    return out


def _run_anywhere(node: ast.AST) -> list[ast.AST]:
    out = [node]
    for child in ast.iter_child_nodes(node):
        if not _type_checking_block(child):
            out.extend(_run_anywhere(child))
    return out


def graph(*, top_level_only: bool | None) -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports(name, path, known, top_level_only=top_level_only) for name, path in found.items()}


def test_every_module_has_a_layer() -> None:
    for name in modules():
        layer_of(name)


def test_no_import_runs_up_a_layer() -> None:
    """Every import counts here, also those inside functions and under TYPE_CHECKING."""
    upward = [
        f"{a} ({layer_of(a)}) imports {b} ({layer_of(b)})"
        for a, targets in sorted(graph(top_level_only=False).items())
        for b in sorted(targets)
        if RANK[layer_of(b)] > RANK[layer_of(a)]
    ]
    assert upward == []


def test_no_import_cycle() -> None:
    """No cycle among the imports that can run, lazy ones (inside functions) included."""
    edges = graph(top_level_only=None)
    cycles = []
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(stack[stack.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert cycles == []


@pytest.mark.parametrize("layer", ["model", "protocols", "answer", "sources"])
def test_lower_layers_import_no_textual(layer: str) -> None:
    """The core and every source run without the UI: no textual anywhere below ``ui``."""
    offenders = []
    for name, path in modules().items():
        if layer_of(name) != layer:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            offenders += [f"{name} imports {n}" for n in names if n.split(".")[0] == "textual"]
    assert offenders == []
