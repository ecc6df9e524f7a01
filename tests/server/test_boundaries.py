"""The server's modules keep to their own objects and their own rooms, as the engine's do
(see tests/test_state.py, which guards Game's private attributes):

* no module reads or calls another object's ``_private`` attribute;
* no module assigns an attribute that a class of another server module owns (the
  stored records of storage/records.py are plain data, written by the room that owns them);
* the room knows nothing of the hub (not even for type checking);
* the folders of ``golf/server`` are layers (:data:`LAYERS`, docs/architecture.md): a
  module imports only from its own folder or a folder below it, never from one above, and
  no modules import each other in a cycle. Imports inside functions and under
  ``if TYPE_CHECKING:`` count too: knowing a higher room's types is knowing the room.

Every check walks the whole tree (``rglob``), and :func:`test_the_walk_finds_every_room`
fails if it finds fewer modules than the server has: a check that silently looks at
nothing would pass forever.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from helpers import import_cycles

SRC = Path(__file__).resolve().parents[2] / "src"
SERVER = SRC / "golf" / "server"
MODULES = sorted(SERVER.rglob("*.py"))
#: Objects made to be assigned to by their users: Starlette's per-application state.
FREE = {"app.state"}
#: Underscored names that are public, documented API of the standard library (the sys
#: module's reference lists ``_current_frames`` for debugging tools such as metrics.py's
#: stall watcher).
DOCUMENTED = {"sys._current_frames"}

#: The server's layers, bottom first: each folder of golf/server, and last the process
#: itself (the modules at the top of the package: app.py, serve.py, metrics.py). A module
#: may import from its own layer and the layers before it.
LAYERS: list[tuple[str, str]] = [
    ("core", "the wire protocol, tokens and the engine bridge: what every room stands on"),
    ("http", "what every request passes first: the origin guard, trusted proxies"),
    ("storage", "the database: tables, migrations, the store and its errors"),
    ("cluster", "several processes on one database: leases, handover messages"),
    ("players", "who is asking: guests, accounts, sessions, passkeys, sign-in limits"),
    ("ratings", "rated matches recorded, profiles and leaderboards read"),
    ("moderation", "blocks, reports and what an operator does about them"),
    ("tables", "live tables: the hub, a room and its parts, the WebSocket, new tables"),
    ("matchmaking", "quick play's queues"),
    ("api", "the REST routes, their dependencies and the error shape"),
    ("", "the process: the application, uvicorn, metrics"),
]
RANK = {folder: i for i, (folder, _) in enumerate(LAYERS)}
#: The least number of modules the walk must find (the server had 59 when this was
#: written: its folders' modules and ``__init__`` files, the migrations included): fewer
#: means the walk went wrong, not the server.
AT_LEAST = 59


def rel(path: Path, root: Path = SERVER) -> str:
    return path.relative_to(root).as_posix()


def module_name(path: Path, root: Path = SERVER) -> str:
    """``golf.server.tables.room`` of ``.../golf/server/tables/room.py``."""
    parts = ["golf", "server", *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int:
    """The rank of a server module's layer: its folder's, or the process's for a module at
    the top of the package (and the package itself)."""
    parts = module.split(".")[2:]  # after golf.server
    return RANK[parts[0] if parts and parts[0] in RANK else ""]


def imported(path: Path, known: Iterable[str], root: Path = SERVER) -> set[str]:
    """The server modules (of ``known``) that the module at ``path`` imports, anywhere in
    it: at the top, inside functions, under ``if TYPE_CHECKING:``."""
    known = set(known)
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            subs = {f"{target}.{a.name}" for a in node.names} & known
            out |= subs
            if target in known and len(subs) < len(node.names):
                out.add(target)  # a name the module defines, not a submodule
    out.discard(name)
    return out


def graph(root: Path = SERVER) -> dict[str, set[str]]:
    paths = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    return {m: imported(p, paths, root) for m, p in paths.items()}


def upward(edges: dict[str, set[str]], rank: Callable[[str], int] = layer_of) -> list[str]:
    """Every import of a module from a higher layer than its own."""
    return sorted(f"{m} -> {t}" for m, targets in edges.items() for t in targets
                  if rank(t) > rank(m))


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles among the server's modules (tests/helpers.py)."""
    return import_cycles(edges)


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


# --- the walk itself ---------------------------------------------------------------------------

def test_the_walk_finds_every_room() -> None:
    assert len(MODULES) >= AT_LEAST, f"found {len(MODULES)} modules under {SERVER}"
    folders = {p.relative_to(SERVER).parts[0] for p in MODULES if p.parent != SERVER}
    # Every layer is a folder that holds code (a package), and every folder is a layer.
    assert folders == set(RANK) - {""}
    for folder in folders:
        assert (SERVER / folder / "__init__.py").is_file(), folder
        assert len(list((SERVER / folder).rglob("*.py"))) >= 2, folder
    # Deeper than one level too: the migrations' versions are walked.
    assert any(rel(p).startswith("storage/migrations/versions/") for p in MODULES)


def test_the_checks_see_what_they_look_for() -> None:
    tree = ast.parse("room._pass_host(seat)\nroom.seats = []\nself._x = 1\n")
    assert private_uses(tree) == [(1, "room._pass_host")]
    assert assigned_attributes(tree) == [(2, "room", "seats")]


def test_the_import_graph_sees_every_kind_of_import() -> None:
    edges = graph()
    # relative, from a sibling folder, and a module named in ``from package import``
    assert "golf.server.tables.hub" in edges["golf.server.tables.sockets"]
    assert "golf.server.core.protocol" in edges["golf.server.tables.room"]
    assert "golf.server.storage.db" in edges["golf.server.storage.schema"]
    # under ``if TYPE_CHECKING:``
    assert "golf.server.tables.match" in edges["golf.server.tables.finish"]
    # absolute (the Alembic environment)
    assert "golf.server.storage.db" in edges["golf.server.storage.migrations.env"]


def test_the_import_graph_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "__init__.py").write_text("")
    (tables / "part.py").write_text("def later() -> None:\n    from .other import x\n")
    (tables / "other.py").write_text("x = 1\n")
    assert graph(tmp_path)["golf.server.tables.part"] == {"golf.server.tables.other"}


def test_the_layer_check_finds_an_upward_import_and_a_cycle() -> None:
    edges = {"golf.server.storage.store": {"golf.server.cluster.lease"},
             "golf.server.cluster.lease": {"golf.server.storage.store"},
             "golf.server.app": {"golf.server.api.lobby"}}
    assert upward(edges) == ["golf.server.storage.store -> golf.server.cluster.lease"]
    assert cycles(edges) == [["golf.server.cluster.lease", "golf.server.storage.store"]]
    assert layer_of("golf.server.app") == layer_of("golf.server") == len(LAYERS) - 1
    assert layer_of("golf.server.core") == layer_of("golf.server.core.protocol") == 0


# --- the rules ---------------------------------------------------------------------------------

def test_no_server_module_imports_from_a_higher_layer() -> None:
    assert upward(graph()) == []


def test_no_server_modules_import_each_other_in_a_cycle() -> None:
    assert cycles(graph()) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: rel(p))
def test_no_server_module_touches_another_objects_private_parts(path: Path) -> None:
    assert private_uses(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_no_server_module_assigns_what_another_module_owns() -> None:
    trees = {rel(p): ast.parse(p.read_text(encoding="utf-8")) for p in MODULES}
    assert "storage/records.py" in trees
    owners: dict[str, set[str]] = {}
    for name, tree in trees.items():
        if name == "storage/records.py":
            continue  # its records are data; the room keeps them up to date
        for attr in own_attributes(tree):
            owners.setdefault(attr, set()).add(name)
    offenders = [f"{name}:{line}: {obj}.{attr} (owned by {', '.join(sorted(owners[attr]))})"
                 for name, tree in trees.items()
                 for line, obj, attr in assigned_attributes(tree)
                 if attr in owners and name not in owners[attr]]
    assert offenders == []


def test_the_room_does_not_know_the_hub() -> None:
    path = SERVER / "tables" / "room.py"
    source = path.read_text(encoding="utf-8")
    assert "golf.server.tables.hub" not in imported(path, graph())
    assert "Hub" not in source


#: The engine's modules the server reaches only through the bridge (core/bridge.py, and
#: the live match of tables/match.py, the bridge's one client that drives golf.table).
ENGINE = {"golf.game", "golf.view", "golf.table"}
BRIDGE = {"core/bridge.py", "tables/match.py"}


def engine_imports(path: Path, root: Path = SERVER) -> set[str]:
    """The modules of :data:`ENGINE` that the module at ``path`` imports, anywhere in it,
    relatively (``from ...game import Game``) or not (``import golf.view``)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, node.module] if node.module else parts)
            targets = {base} | {f"{base}.{a.name}" for a in node.names}
        else:
            continue
        out |= {e for t in targets for e in ENGINE if t == e or t.startswith(e + ".")}
    return out


def test_the_engine_check_sees_every_kind_of_import(tmp_path: Path) -> None:
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "room.py").write_text(
        "import golf.view\nfrom ...game import Game\nfrom golf import table\n"
        "def later() -> None:\n    from ...view import remembered\n")
    assert engine_imports(tables / "room.py", tmp_path) == {
        "golf.view", "golf.game", "golf.table"}
    assert engine_imports(SERVER / "core" / "bridge.py") >= {"golf.game", "golf.view"}


def test_only_the_bridge_imports_the_engines_game_view_and_table() -> None:
    offenders = {rel(p): sorted(engine_imports(p)) for p in MODULES
                 if rel(p) not in BRIDGE and engine_imports(p)}
    assert offenders == {}
