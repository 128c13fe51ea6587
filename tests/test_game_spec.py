"""One place per game: each game's engine, strategies, report sections and rules
document are declared in its ``GameSpec`` and registered once, as an entry point of the group
``meeplelab.games``; a third-party package plugs a game in the same way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from meeplelab.analysis.sections import game_sections
from meeplelab.sim.core.spec import GameSpec
from meeplelab.sim.registry import builtin_games, get_game_class, get_spec
from meeplelab.strategies.registry import strategies_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["unconscious-mind", "galileos-truth"])
def test_each_builtin_game_is_one_spec_naming_its_engine_strategies_sections_and_rules_doc(name):
    spec = get_spec(name)
    assert isinstance(spec, GameSpec) and spec.name == name
    assert get_game_class(name).name == name
    assert (ROOT / spec.rules_doc).is_file()
    assert game_sections(name)  # the report sections of its spec's module
    own = {s.name for s in strategies_for(name) if s.games and name in s.games}
    assert len(own) >= 4  # its scripted plans, registered by the modules its spec names
    assert builtin_games() == ["galileos-truth", "unconscious-mind"]


THIRD_PARTY = '''
from meeplelab.sim.core.spec import GameSpec
from tests.toygame import ToyGame


class Dice(ToyGame):
    name = "third-party-dice"
    title = "A third-party game"


SPEC = GameSpec(name="third-party-dice", engine=Dice)
'''


def test_a_third_party_package_plugs_a_game_in_through_the_entry_point_group(tmp_path):
    (tmp_path / "dicegame.py").write_text(THIRD_PARTY)
    dist = tmp_path / "dicegame-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: dicegame\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[meeplelab.games]\nthird-party-dice = dicegame:SPEC\n")
    script = ("import json; from meeplelab.sim.registry import available_games; from cli import main; "
              "print(json.dumps(available_games()))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, cwd=ROOT, check=True)
    assert json.loads(out.stdout) == ["galileos-truth", "unconscious-mind", "third-party-dice"]
    run = tmp_path / "run"
    res = subprocess.run([sys.executable, "-c", "from cli import main; main()", "simulate", "--game", "third-party-dice",
                          "--players", "2", "--strategies", "random", "--games", "40", "--n-jobs", "2",
                          "--out", str(run)], env=env, capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    m = json.loads((run / "manifest.json").read_text())
    assert m["status"] == "complete" and m["game"]["name"] == "third-party-dice"
