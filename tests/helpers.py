"""Test helpers shared by several test files."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from golf import Game


def scramble_hidden(g: Game, seat: int, rng: random.Random, own_peeks: bool = False) -> Game:
    """A clone in which every card ``seat`` cannot know is shuffled among the hidden places.

    It rearranges a copy of the game's public state and plays on it with
    ``Game.from_state``. The stock, every face-down card ``seat`` has
    not peeked at, and a card another player drew from the stock all trade places (once
    the stock has been reshuffled, within the stock and within the grids); a view that
    leaked any of them (or the stock's order) would change. With ``own_peeks`` the
    cards ``seat`` peeked at move too (for bots that may forget them).
    """
    state = g.state.copy()
    h = state.hole
    cells = state.rules.cells
    stock: list[tuple[list[int], int]] = [(h.stock, i) for i in range(len(h.stock))]
    grids: list[tuple[list[int], int]] = []
    for s in h.active:
        known = h.up[s] | (h.peeked[s] if s == seat and not own_peeks else 0)
        grids += [(h.grids[s], i) for i in range(cells) if not known >> i & 1]
    held_hidden = h.held >= 0 and h.current != seat and h.held_from == 0
    # After a reshuffle every player saw the pile that became the stock, so the view
    # shows the stock's cards (with a card drawn from it) but not their order or which
    # one was drawn: those cards then trade places among themselves only, and the
    # face-down cards among themselves. Before one, all hidden cards trade places.
    groups = [stock, grids] if h.reshuffles else [stock + grids]
    for slots in groups:
        values = [lst[i] for lst, i in slots]
        hold = held_hidden and slots is groups[0]
        if hold:
            values.append(h.held)
        rng.shuffle(values)
        if hold:
            h.held = values.pop()
        for (lst, i), v in zip(slots, values, strict=True):
            lst[i] = v
    return Game.from_state(state)



def random_spiel_state(game: Any, rng: random.Random, decisions: int) -> Any:
    """An OpenSpiel state after ``decisions`` uniformly random player moves (chance
    outcomes drawn by their probabilities), or the end of the game if it comes first.
    ``game`` is a ``pyspiel.Game``; typed loosely so this module needs no OpenSpiel."""
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and (made < decisions or state.is_chance_node()):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
    return state


def warm_compiled_search() -> None:
    """Compile the ``search`` bot's core once here (or load it), when numba is installed.

    A server the tests start coaches six-card rooms with the search bot; its first hint
    then loads the compiled code from numba's disk cache in seconds instead of compiling
    it for minutes while a test waits for the hint."""
    import importlib.util

    if importlib.util.find_spec("numba") is None:
        return
    from golf.bots import make_bot

    g = Game("six-card", players=2, seed=1)
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    make_bot("search:sims=4", g.rules).explain(g.view(g.current_player, codes=True),
                                                g.legal_actions())


def import_cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module of an import graph
    (Tarjan), each sorted, in the order of their lowest module (the package's and the
    server's layering tests both ask it)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for m in sorted(edges):
        if m not in index:
            visit(m)
    return found


#: The browser client's ES modules.
WEB_JS = Path(__file__).resolve().parents[1] / "src" / "golf" / "web" / "static" / "js"
_ENTRY = re.compile(r'^\s*"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)",?\s*$')


def web_strings() -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    """The page's words: each module under js/strings/ by its name ("table.js"), with its
    English and its German table parsed from its ``extendStrings({...}, {...})`` call. Every
    line of the tables is one entry or a comment; any other line is an error here, so that no
    entry goes unread."""
    found = {}
    for path in sorted((WEB_JS / "strings").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        call = text[text.index("extendStrings({\n") + len("extendStrings({\n"):]
        en_part, de_part = call.split("\n}, {\n")
        de_part = de_part[:de_part.index("\n});")]
        tables = []
        for part in (en_part, de_part):
            table: dict[str, str] = {}
            for line in part.splitlines():
                if not line.strip() or line.strip().startswith("//"):
                    continue
                entry = _ENTRY.match(line)
                assert entry, f"{path.name}: not one entry: {line!r}"
                assert entry[1] not in table, f"{path.name}: {entry[1]} twice"
                table[entry[1]] = entry[2]
            tables.append(table)
        found[path.name] = (tables[0], tables[1])
    return found
