"""No import cycle among the project's modules, function-level imports included, except the documented
lazy facades: `game` (its `__getattr__`), `game.position` and `game.match` (which name what they
hand out on first use, see their docstrings). A cycle is a design fault: two modules that cannot be
read, tested or moved apart."""

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "drivers", "firmware_host")
LAZY_FACADES = {"game", "game.position", "game.match"}
"""Modules that hand out other modules' names on first use, by design (the lazy facade): only their
module-level imports count."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}


def imported(name: str, path: Path) -> Iterator[str]:
    """Every project module `name` imports, at any level of its code (TYPE_CHECKING blocks excepted;
    a lazy facade's module level only). Its own packages are not counted: Python runs them first."""
    tree = ast.parse(path.read_text())
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(block.test) for node in ast.walk(block)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    ancestors = {".".join(name.split(".")[:n]) for n in range(1, name.count(".") + 1)}
    nodes = tree.body if name in LAZY_FACADES else list(ast.walk(tree))
    for node in nodes:
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name and target not in ancestors:
                yield target


def graph() -> dict[str, set[str]]:
    return {name: set(imported(name, path)) for name, path in MODULES.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_checker_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    found = cycles(graph())
    assert not found, "\n".join(" <-> ".join(component) for component in found)
