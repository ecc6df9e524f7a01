"""The import graph of ``src/golf``: no import cycles, every import runs down the package's
layers (:data:`LAYERS`), and the modules that used to form cycles import cleanly first
thing in a fresh interpreter. (The server's own folders are layers too:
tests/server/test_boundaries.py.)"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import import_cycles

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "golf"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _statements(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node that may run, deferred imports inside functions included (a cycle
    broken only by deferring an import is still a cycle); ``if TYPE_CHECKING:`` blocks
    never run."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                todo.extend(node.orelse)
                continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


#: Imports by computed names: the command line loads every module of golf.commands.
DYNAMIC = {"golf.cli": {m for m in MODULES if m.startswith("golf.commands.")}}


def dynamic_target(text: str, package: str) -> str:
    """The module ``importlib.import_module(text, package)`` loads: a relative name
    (``".external"``, given the caller's ``__package__``) resolves against the package,
    one leading dot per level, like ``from . import``.

    >>> dynamic_target(".external", "golf.bots"), dynamic_target("..rules", "golf.bots")
    ('golf.bots.external', 'golf.rules')
    """
    if not text.startswith("."):
        return text
    rest = text.lstrip(".")
    base = package.split(".")
    base = base[: len(base) - (len(text) - len(rest)) + 1]
    return ".".join([*base, rest] if rest else base)


def imports_of(name: str) -> set[str]:
    """The golf modules that ``name`` imports, at import time or later."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set(DYNAMIC.get(name, ()))
    for node in _statements(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            subs = {f"{target}.{a.name}" for a in node.names} & MODULES.keys()
            out |= subs
            if target in MODULES and len(subs) < len(node.names):
                out.add(target)  # a name defined by the module itself, not a submodule
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            target = dynamic_target(node.args[0].value, package)
            if target in MODULES:
                out.add(target)
    out.discard(name)
    return out


def cycles() -> list[set[str]]:
    """The import cycles among the package's modules (tests/helpers.py)."""
    return [set(c) for c in import_cycles({m: imports_of(m) for m in MODULES})]


#: The package's layers, bottom first. A unit is a module at the top of ``golf`` or a
#: subpackage (``bots/``); a module may import from its own layer and the layers before it,
#: never from a later one (a piece two layers share lives in the lower one: the seed mixer
#: in ``hashing``, the experts' weights in ``expert_weights``, ``rules.default_players``).
LAYERS: list[set[str]] = [
    # the engine, and what the engine's users share below the bots
    {"__init__", "errors", "digits", "cards", "actions", "phases", "rules", "scoring",
     "state", "events", "view", "position", "game", "knowledge", "types", "hashing",
     "expert_weights"},
    {"identity/", "backend", "results"},
    {"fast/"},
    {"bots/"},
    {"table"},
    {"ratings", "simulate"},
    {"terminal/"},
    {"envs/"},  # the RL adapters, the text matches and the OpenSpiel bot over them
    {"arena", "tournament", "lab/"},
    {"server/"},
    {"admin", "cluster"},
    {"commands/"},
    {"cli", "__main__"},
]
RANK = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}


def unit_of(module: str) -> str:
    """``bots/`` of golf.bots.expert, ``table`` of golf.table, ``__init__`` of golf."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    return f"{parts[1]}/" if (PACKAGE / parts[1]).is_dir() else parts[1]


def against_the_layers() -> list[str]:
    return sorted(f"{m} -> {t}" for m in MODULES for t in imports_of(m)
                  if RANK[unit_of(t)] > RANK[unit_of(m)])


def test_every_unit_has_a_layer() -> None:
    units = {unit_of(m) for m in MODULES}
    assert units == set(RANK), (units ^ set(RANK))
    assert len(MODULES) > 150  # the walk found the package, not a stray folder


def test_imports_run_down_the_layers() -> None:
    assert against_the_layers() == []


def test_the_graph_sees_relative_imports() -> None:
    # The checker itself must find edges, or "no cycle" would prove nothing.
    assert "golf.bots.base" in imports_of("golf.envs.openspiel_bot")
    assert "golf.envs.openspiel" in imports_of("golf.envs.openspiel_bot")
    assert "golf.errors" in imports_of("golf.commands.play")
    assert "golf.commands" in imports_of("golf.cli")
    # importlib.import_module(".external", __package__): a relative name is an edge too.
    assert "golf.bots.external" in imports_of("golf.bots.base")


def test_relative_dynamic_names_resolve() -> None:
    assert dynamic_target(".external", "golf.bots") == "golf.bots.external"
    assert dynamic_target("..rules", "golf.bots") == "golf.rules"
    assert dynamic_target("golf.table", "golf.bots") == "golf.table"


def test_no_import_cycles() -> None:
    assert [sorted(comp) for comp in cycles()] == []


@pytest.mark.parametrize(("a", "b"), [
    ("golf.bots.base", "golf.envs.openspiel_bot"),
    ("golf.cli", "golf.commands.play"),
    ("golf.cli", "golf.commands.replay"),
    ("golf.table", "golf.terminal.session"),
    ("golf.table", "golf.envs.openspiel_bot"),
    ("golf.bots.base", "golf.bots.external"),
    ("golf.server.tables.hub", "golf.server.tables.room"),
])
def test_pairs_that_once_formed_cycles_do_not(a: str, b: str) -> None:
    assert not any({a, b} <= comp for comp in cycles())
    assert a not in imports_of(b) or b not in imports_of(a)


@pytest.mark.parametrize("module", [
    "golf.envs.openspiel_bot", "golf.commands.play", "golf.commands.replay", "golf.cli",
    "golf.table", "golf.envs.openspiel", "golf.bots.base", "golf.bots.external",
    "golf.server.tables.room", "golf.server.tables.hub",
])
def test_each_imports_first_in_a_fresh_interpreter(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
