"""golf arena: an agent against bots over duplicate deals, and the OpenAI-compatible chat
agent tested against a local HTTP server that speaks the chat-completions API."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

import golf
from golf.arena import run_arena, summarise
from golf.envs.agents import AgentError, ChatAgent, chat_spec
from golf.envs.text import TextOptions
from golf.rules import load_rules


class _ChatServer(BaseHTTPRequestHandler):
    """Answers /v1/chat/completions with a legal move read from the prompt (or, per the
    server's script, an error status, a wrong move or a slow answer)."""

    script: ClassVar[list[str]] = []
    seen: ClassVar[list[dict[str, Any]]] = []
    rng = random.Random(0)

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        body = json.loads(self.rfile.read(length))
        type(self).seen.append({"path": self.path, "auth": self.headers.get("Authorization"),
                                "body": body})
        step = type(self).script.pop(0) if type(self).script else "move"
        if step == "500":
            self.send_response(500)
            self.end_headers()
            return
        if step == "401":
            self.send_response(401)
            self.end_headers()
            return
        prompt = body["messages"][-1]["content"]
        line = [x for x in prompt.splitlines() if x.startswith("Your legal moves: ")][-1]
        moves = []
        for group in line.removeprefix("Your legal moves: ").split(" | "):
            kind, *ps = group.split()
            moves += [f"{kind} {p}" for p in ps] if ps else [kind]
        move = {"move": self.rng.choice(moves), "digits": "²", "arabic": "٣"}.get(step,
                                                                                "juggle")
        reply = {"choices": [{"message": {"role": "assistant",
                                          "content": f"Let me think.\nAnswer: {move}"}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def chat_server() -> Iterator[str]:
    _ChatServer.script = []
    _ChatServer.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _ChatServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_spec_parsing() -> None:
    assert chat_spec("openai:http://127.0.0.1:8000/v1:m") == ("http://127.0.0.1:8000/v1", "m")
    assert chat_spec("openai:https://h/v1/:org/model") == ("https://h/v1", "org/model")
    with pytest.raises(golf.GolfError, match="openai:BASE_URL:MODEL"):
        chat_spec("openai:127.0.0.1:model")


def test_a_chat_agent_plays_whole_matches(chat_server: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOLF_TEST_KEY", "sk-test-123")
    spec = f"openai:{chat_server}:tiny-model"
    res = run_arena(spec, ["greedy"], load_rules("six-card", {"holes": 1}), players=2,
                    deals=2, seed=5, chat={"api_key_env": "GOLF_TEST_KEY", "timeout": 5})
    assert len(res.matches) == 4 and not any(m.forfeited for m in res.matches)
    assert all(s["path"] == "/v1/chat/completions" for s in _ChatServer.seen)
    assert all(s["auth"] == "Bearer sk-test-123" for s in _ChatServer.seen)
    assert {s["body"]["model"] for s in _ChatServer.seen} == {"tiny-model"}
    # One request per decision of the agent's seat.
    assert len(_ChatServer.seen) > 4 * 3


def test_the_chat_agent_retries_server_errors_then_gives_up(chat_server: str) -> None:
    agent = ChatAgent.from_spec(f"openai:{chat_server}:m", retries=2, backoff=0.01)
    g = golf.Game("six-card", players=2, seed=1)
    from golf.envs.text import describe
    prompt = describe(g, 0, ["You", "B"])
    _ChatServer.script = ["500", "500"]
    assert "Answer:" in agent(prompt)           # the third try answers
    _ChatServer.script = ["401"]
    with pytest.raises(AgentError, match="HTTP 401 after 3 tries"):
        agent(prompt)                           # a 4xx is not retried, and says so
    dead = ChatAgent("http://127.0.0.1:9/v1", "m", retries=0, timeout=2)
    with pytest.raises(AgentError, match="no answer"):
        dead(prompt)


def test_wrong_answers_from_the_model_are_counted(chat_server: str) -> None:
    _ChatServer.script = ["wrong", "wrong"]  # then good moves
    res = run_arena(f"openai:{chat_server}:m", ["greedy"],
                    load_rules("six-card", {"holes": 1}), players=2, deals=1, seed=1,
                    text=TextOptions(retries=2))
    assert summarise(res)["invalid_answers"] == 2 and summarise(res)["forfeits"] == 0


def test_answers_in_other_digits_are_counted_as_wrong(chat_server: str) -> None:
    # "²" made int() raise a bare ValueError that ended the arena; "٣" was read as 3.
    _ChatServer.script = ["digits", "arabic", "digits"]  # then good moves
    res = run_arena(f"openai:{chat_server}:m", ["greedy"],
                    load_rules("six-card", {"holes": 1}), players=2, deals=1, seed=1,
                    text=TextOptions(retries=3))
    assert summarise(res)["invalid_answers"] == 3 and summarise(res)["forfeits"] == 0


def test_duplicate_deals_rotate_the_agent_through_every_seat() -> None:
    rules = load_rules("four-card", {"holes": 1})
    out = io.StringIO()
    res = run_arena("greedy", ["random", "expert"], rules, players=3, deals=2, seed=9,
                    transcript=out)
    assert [(m.deal, m.seat) for m in res.matches] == [(d, s) for d in range(2)
                                                       for s in range(3)]
    assert len({m.seed for m in res.matches if m.deal == 0}) == 1
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(lines) == 6
    for line, m in zip(lines, res.matches, strict=True):
        assert tuple(golf.Game.from_record(line["record"]).totals) == m.totals
    # Same seeds, same figures.
    again = run_arena("greedy", ["random", "expert"], rules, players=3, deals=2, seed=9)
    assert again.matches == res.matches


def test_the_strong_bot_wins_the_arena() -> None:
    """An honest check of the figures: the expert beats random in nearly every match."""
    res = run_arena("expert", ["random"], load_rules("six-card", {"holes": 1}), players=2,
                    deals=15, seed=2)
    s = summarise(res)
    assert s["win_share"][1] > 0.7 and s["margin"][0] > 5


def test_the_command(tmp_path: Any) -> None:
    out = tmp_path / "t.jsonl"
    run = subprocess.run([sys.executable, "-m", "golf", "arena", "--agent", "greedy",
                          "--opponents", "random", "--deals", "3", "--rule", "holes=1",
                          "--transcript", str(out), "--json", "--no-progress"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["matches"] == 6 and len(out.read_text().splitlines()) == 6
    bad = subprocess.run([sys.executable, "-m", "golf", "arena", "--agent", "greedy",
                          "--players", "9"], capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "for 2 to 8 players" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert re.search(r"golf: error", bad.stderr)


def test_a_program_that_fails_forfeits_its_match() -> None:
    """A cmd: agent that dies forfeits (share 0); a cmd: opponent that dies voids the match,
    which is left out of the figures, as golf simulate leaves such matches out."""
    rules = load_rules("six-card", {"holes": 1})
    dead = "cmd[start_timeout=5]:python -c pass"
    res = run_arena(dead, ["greedy"], rules, players=2, deals=1, seed=1)
    assert all(m.forfeited and m.share == 0 and m.margin is None for m in res.matches)
    assert summarise(res)["forfeits"] == 2
    res = run_arena("greedy", [dead], rules, players=2, deals=2, seed=1)
    s = summarise(res)
    assert all(m.void for m in res.matches) and s["void"] == 4 and s["matches"] == 4
    assert s["win_share"][0] != s["win_share"][0]  # NaN: nothing was left to measure


def test_a_worker_pool_plays_the_same_arena_and_transcript_in_order() -> None:
    from golf.backend import LocalPool

    rules = load_rules("six-card", {"holes": 1})
    runs = []
    for workers in (1, 2):
        out = io.StringIO()
        res = run_arena("greedy", ["easy", "random"], rules, players=3, deals=3, seed=4,
                        transcript=out, backend=LocalPool(workers))
        runs.append((res.matches, out.getvalue()))
    assert runs[0] == runs[1]
    lines = [json.loads(x) for x in runs[1][1].splitlines()]
    assert [(x["deal"], x["seat"]) for x in lines] == [(d, s) for d in range(3)
                                                       for s in range(3)]
