"""Random against heuristic in meeplelab's PettingZoo environments (docs/environments.md): trains nothing.

Seat 0 is a random agent (PettingZoo's usual one: a uniform legal action drawn from the action space with the
observation's action mask); seat 1 is meeplelab's ``heuristic`` strategy, asked through the environment
(``env.unwrapped.strategy_action``). Each game prints one line with both seats' rewards (win shares)::

    python docs/examples/pettingzoo_random_vs_heuristic.py --games 3
    galileos-truth game 0: seat_0 (random)=0.0, seat_1 (heuristic)=1.0
    ...
"""

from __future__ import annotations

import argparse

from meeplelab.env import env
from meeplelab.strategies.registry import make_strategy


def play(game: str, games: int, seed: int) -> None:
    """Play ``games`` games of ``game`` (game indices 0, 1, ... of run ``seed``) and print each one's rewards."""
    e = env(game, players=2, seed=seed)
    heuristic = make_strategy(game, "heuristic")
    names = {"seat_0": "random", "seat_1": "heuristic"}
    for i in range(games):
        e.reset(seed=seed if i == 0 else None)  # the first game of the seed, then the next ones
        e.action_space("seat_0").seed(seed + i)  # the random agent's own draws, reproducible
        rewards = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, termination, truncation, info = e.last()
            rewards[agent] += reward
            if termination or truncation:
                action = None
            elif agent == "seat_0":
                action = e.action_space(agent).sample(obs["action_mask"])
            else:
                action = e.unwrapped.strategy_action(heuristic)
            e.step(action)
        print(f"{game} game {i}: " + ", ".join(f"{a} ({names[a]})={rewards[a]}" for a in e.possible_agents))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="games per game id")
    ap.add_argument("--seed", type=int, default=7, help="the run seed")
    args = ap.parse_args()
    for game in ("galileos-truth", "unconscious-mind"):
        play(game, args.games, args.seed)


if __name__ == "__main__":
    main()
