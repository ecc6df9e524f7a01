"""The server's modules keep to their own objects, as the engine's do (see
tests/test_state.py, which guards Game's private attributes):

* no module reads or calls another object's ``_private`` attribute;
* no module assigns an attribute that a class of another server module owns (the
  stored records of storage/store.py are plain data, written by the room that owns them);
* the room knows nothing of the hub (not even for type checking).
"""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "golf" / "server"
MODULES = sorted(SERVER.rglob("*.py"))  # every folder of the server
#: Objects made to be assigned to by their users: Starlette's per-application state.
FREE = {"app.state"}
#: Underscored names that are public, documented API of the standard library (the sys
#: module's reference lists ``_current_frames`` for debugging tools such as metrics.py's
#: stall watcher).
DOCUMENTED = {"sys._current_frames"}


def own_attributes(tree: ast.Module) -> set[str]:
    """The attributes the classes of a module assign on ``self``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                isinstance(node.value, ast.Name) and node.value.id == "self":
            out.add(node.attr)
    return out


def assigned_attributes(tree: ast.Module) -> list[tuple[int, str, str]]:
    """(line, object, attribute) of every ``obj.attr = ...`` whose object is not self."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                not (isinstance(node.value, ast.Name) and node.value.id == "self") and \
                ast.unparse(node.value) not in FREE:
            out.append((node.lineno, ast.unparse(node.value), node.attr))
    return out


def private_uses(tree: ast.Module) -> list[tuple[int, str]]:
    """Every ``x._name`` (not a dunder) whose ``x`` is not self or cls."""
    return [(node.lineno, ast.unparse(node)) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            and ast.unparse(node) not in DOCUMENTED]


def test_the_checks_see_what_they_look_for() -> None:
    tree = ast.parse("room._pass_host(seat)\nroom.seats = []\nself._x = 1\n")
    assert private_uses(tree) == [(1, "room._pass_host")]
    assert assigned_attributes(tree) == [(2, "room", "seats")]


def test_no_server_module_touches_another_objects_private_parts() -> None:
    offenders = [f"{p.relative_to(SERVER)}:{line}: {text}" for p in MODULES
                 for line, text in private_uses(ast.parse(p.read_text(encoding="utf-8")))]
    assert offenders == []


def test_no_server_module_assigns_what_another_module_owns() -> None:
    trees = {p.relative_to(SERVER).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
             for p in MODULES}
    owners: dict[str, set[str]] = {}
    for name, tree in trees.items():
        if name == "storage/store.py":
            continue  # its records are data; the room keeps them up to date
        for attr in own_attributes(tree):
            owners.setdefault(attr, set()).add(name)
    offenders = [f"{name}:{line}: {obj}.{attr} (owned by {', '.join(sorted(owners[attr]))})"
                 for name, tree in trees.items()
                 for line, obj, attr in assigned_attributes(tree)
                 if attr in owners and name not in owners[attr]]
    assert offenders == []


def test_the_room_does_not_know_the_hub() -> None:
    source = (SERVER / "tables" / "room.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert not any(m == "hub" or m.endswith(".hub") for m in imported)
    assert "Hub" not in source
