"""Agents that answer a text prompt: an OpenAI-compatible chat endpoint (the interface
vLLM, llama.cpp's server and Ollama expose) and the specs that name them.

An agent is any callable ``prompt -> answer``. :func:`chat_spec` reads
``openai:BASE_URL:MODEL`` (``openai:http://127.0.0.1:8080/v1:llama3:8b``); the key, if
the server wants one, comes from an environment variable (``OPENAI_API_KEY`` by default)
and is never printed.

>>> chat_spec("openai:http://127.0.0.1:8080/v1:llama3:8b")
('http://127.0.0.1:8080/v1', 'llama3:8b')
>>> chat_spec("openai:http://localhost:11434:qwen2")
('http://localhost:11434', 'qwen2')
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from ..errors import GolfError

__all__ = ["SYSTEM_PROMPT", "AgentError", "ChatAgent", "chat_spec", "is_chat_spec"]

SYSTEM_PROMPT = ("You are playing the card game Golf. Read the rules and the board, then "
                 "answer with exactly one legal move in the notation shown. You may think "
                 "first; end with a line 'Answer: <move>'.")
_SPEC = re.compile(r"openai:(https?://[^/:\s]+(?::\d+)?(?:/[^:\s]*)?):(\S+)")


class AgentError(GolfError):
    """An agent that could not answer (its server unreachable or answering nonsense)."""


def is_chat_spec(spec: str) -> bool:
    return spec.startswith("openai:")


def chat_spec(spec: str) -> tuple[str, str]:
    """The base URL and model of an ``openai:BASE_URL:MODEL`` spec."""
    m = _SPEC.fullmatch(spec.strip())
    if not m:
        raise GolfError(f"agent {spec!r}: an OpenAI-compatible agent is written "
                        "openai:BASE_URL:MODEL, e.g. openai:http://127.0.0.1:8000/v1:my-model")
    return m.group(1).rstrip("/"), m.group(2)


@dataclass
class ChatAgent:
    """Asks ``POST {base_url}/chat/completions`` for each answer. ``timeout`` seconds a
    request, ``retries`` more tries (with a growing pause) after a connection error, a
    time-out or a 429/5xx answer; then :class:`AgentError`."""

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = 60.0
    retries: int = 2
    temperature: float = 0.0
    max_tokens: int = 512
    system: str = SYSTEM_PROMPT
    backoff: float = 0.5

    @classmethod
    def from_spec(cls, spec: str, **options: Any) -> ChatAgent:
        base, model = chat_spec(spec)
        return cls(base, model, **options)

    def __call__(self, prompt: str) -> str:
        body = json.dumps({
            "model": self.model,
            "messages": [{"role": "system", "content": self.system},
                         {"role": "user", "content": prompt}],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }).encode()
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        url = f"{self.base_url}/chat/completions"
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            request = urllib.request.Request(url, data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return _content(json.loads(response.read(1 << 22)))
            except urllib.error.HTTPError as e:
                last = f"HTTP {e.code}"
                if e.code != 429 and e.code < 500:
                    break
            except (urllib.error.URLError, TimeoutError, OSError) as e:
                last = f"no answer ({getattr(e, 'reason', e)})"
            except ValueError:
                last = "an answer that is not a chat completion"
        raise AgentError(f"agent {self.model} at {self.base_url}: {last} after "
                         f"{self.retries + 1} tries")


def _content(data: Any) -> str:
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ValueError("no choices[0].message.content") from None
    if not isinstance(content, str):
        raise ValueError("content is not text")
    return content
