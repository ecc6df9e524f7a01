"""The rules lab: what a house rule does to the game, measured (``golf lab``, docs/lab.md).

* :func:`golf.lab.run.lab`: a ruleset against its base on paired deals, every figure with
  its 95% interval; :func:`golf.lab.sweep.run_sweep`: every option of a variant.
* :func:`golf.lab.effects.sentence` / :func:`golf.lab.effects.effects_for`: the shipped
  table of one plain sentence per preset and house-rule value (English and German).
"""

from __future__ import annotations

from .effects import effects_for, sentence

__all__ = ["effects_for", "sentence"]
