"""Behaviour locks for the Qawale and Granat engines: seeded random games hashed ply by ply.

The digests were computed with the engines as they stood before the speed work of issue #16.
Any change to a legal-move list (its order included), a dump, a view or a result changes the
digest, so a faster engine that still passes plays exactly the same games. Games from the
start position seldom reach some rules (Qawale's tall stacks and double lines, Granat's lost
marble and quiet-move draw), so each game is also played on from seeded random positions,
and every legal move from such positions is tried once.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from engines import GAMES, GameState
from engines.granat import CELLS
from engines.qawale import QawaleState

GAMES_PER_DIGEST = 200
"""Seeded random games hashed per digest."""

SAMPLED_ENDINGS = 30
"""Qawale moves tried per ply when a game from a random position looks for an ending."""

DIGESTS: dict[tuple[str, str, str], str] = {
    ("qawale", "{}", "start"): (
        "14c45a5d9bdca7b91236867e2cba5eb4901ea5cf6e97ad20991e7a200c0afe24"
    ),
    ("qawale", '{"mover_wins_double_line": false}', "start"): (
        "88a1d69de80df3ea7661e30e98cb4a4012b0f545800b32986e905fab0cef1510"
    ),
    ("qawale", "{}", "random"): (
        "1fff9f9e9f81e33d97854530d791da3d51017184699ddbda263fda9f6a96084a"
    ),
    ("qawale", '{"mover_wins_double_line": false}', "random"): (
        "6c966506d7f077da7ac1714cab045710ff20ed6af2130421435af374fe7f8002"
    ),
    ("granat", "{}", "start"): (
        "950e850d8c64c94cad50c0cce4f269f38d88510cfc36c9676de926af9d487b77"
    ),
    ("granat", "{}", "random"): (
        "85e036424a36b6f20b63940d21c8960503bb6d3d5677995aa9bc8e56953ff496"
    ),
}
"""(game id, options as JSON, start) -> sha256 of every game's plies: legal moves, dump and
spectator view (JSON key order included), the same for rebuilt twins every fifth ply, then
the result. `start` is "start" (the start position) or "random" (seeded random positions)."""


POSITIONS = 300
"""Seeded random positions whose every move is hashed (Qawale's double lines are that rare)."""

EVERY_MOVE_DIGESTS: dict[tuple[str, str], str] = {
    ("qawale", "{}"): "cfe1a6ec6c94a07f2a3f9d5c5443b880f04459f994456f98f03018ccda75c1f8",
    ("qawale", '{"mover_wins_double_line": false}'): (
        "bf3b5196cfb04fb90f41ac45cdf3942574c532c321c5cc4868921af61445aed0"
    ),
    ("granat", "{}"): "8a56b14b815f0a1e294326f64de8f541b0e231e3e1ff0e09157c8f7d9386547b",
}
"""(game id, options as JSON) -> sha256 of `digest_every_move`."""


def qawale_position(rng: random.Random) -> str:
    """A random legal Qawale position string: equal stocks, stacks at most 8 high, 0 to move."""
    stock = rng.randint(0, 7)
    pebbles = ["n"] * 8 + ["0"] * (8 - stock) + ["1"] * (8 - stock)
    rng.shuffle(pebbles)
    stacks: list[str] = [""] * 16
    for pebble in pebbles:
        cell = rng.choice([c for c in range(16) if len(stacks[c]) < 8])
        stacks[cell] += pebble
    rows = [",".join(stacks[row * 4 + col] or "-" for col in range(4)) for row in (3, 2, 1, 0)]
    return f"{'/'.join(rows)} 0 {stock} {stock}"


def granat_position(rng: random.Random) -> str:
    """A random Granat position string: up to 14 pawns a side, up to 2 of them garnet; often
    a garnet pawn of the side to move on e8 with its four links taken (a marble to save)."""
    names = [f"{'abcdefghi'[cell.col]}{cell.row + 1}" for cell in CELLS]
    rng.shuffle(names)
    if rng.random() < 0.3:
        hub = ["e8", "d8", "f8", "e7", "e9"]
        names = hub + [name for name in names if name not in hub]
    seat = rng.randint(0, 1)
    lists = {}
    for side in (seat, 1 - seat):  # the side to move first: it gets e8, as a garnet pawn
        count = rng.randint(1, 14)
        mine, names = names[:count], names[count:]
        garnets = rng.randint(0, min(2, count))
        lists[side] = ",".join(
            name + ("*" if index < garnets else "") for index, name in enumerate(mine))
    quiet = rng.choice([0, 0, 20, 35, 39])
    return f"{seat} R:{lists[0]} B:{lists[1]} {quiet}"


def pick(state: GameState, moves: list[Any], rng: random.Random) -> Any:
    """A random move; in Qawale, often one of a few that ends the game (with the most lines),
    as random sowings seldom show a line, and almost never one for both colours at once."""
    if not isinstance(state, QawaleState) or rng.random() < 0.5:
        return rng.choice(moves)
    best, most = None, 0
    for move in rng.sample(moves, min(len(moves), SAMPLED_ENDINGS)):
        after = state.clone()
        after.apply(move)
        lines = len(after.winning_lines) + after.is_over()
        if lines > most:
            best, most = move, lines
    return rng.choice(moves) if best is None else best


def first_state(game_id: str, options: dict[str, bool], start: str, seed: int) -> GameState:
    """The state a digest game starts from."""
    game = GAMES[game_id]
    if start == "start":
        return game.new_state(2, options)
    rng = random.Random(f"{game_id} position {seed}")
    make = qawale_position if game_id == "qawale" else granat_position
    while True:
        try:
            return game.from_position(make(rng), options)
        except ValueError:
            continue  # e.g. a Qawale position that needs the other seat to move


def digest(game_id: str, options: str = "{}", start: str = "start",
           games: int = GAMES_PER_DIGEST) -> str:
    """Hash `games` seeded random games of `game_id` to the end, ply by ply."""
    sha = hashlib.sha256()
    game = GAMES[game_id]
    for seed in range(games):
        rng = random.Random(seed)
        state = first_state(game_id, json.loads(options), start, seed)
        ply = 0
        while True:
            moves = state.legal_moves()
            sha.update("|".join(map(str, moves)).encode())
            sha.update(json.dumps(state.dump()).encode())
            sha.update(json.dumps(state.view(None)).encode())
            if ply % 5 == 0:
                # Rebuilt states too: from the dump, from the position string, and a clone.
                for twin in (game.load(state.dump()), state.clone(),
                             game.from_position(state.position(), state.options)):
                    sha.update("|".join(map(str, twin.legal_moves())).encode())
                    sha.update(json.dumps(twin.view(None)).encode())
            if state.is_over():
                break
            move = pick(state, moves, rng) if start == "random" else rng.choice(moves)
            # Every other ply goes through the notation, so parsing is locked too.
            state.apply(str(move) if ply % 2 else move)
            ply += 1
        result = state.result()
        assert result is not None
        sha.update(json.dumps(result.to_dict()).encode())
    return sha.hexdigest()


def digest_every_move(game_id: str, options: str, positions: int = POSITIONS) -> str:
    """Hash every legal move's outcome (dump, view) from `positions` seeded random positions."""
    sha = hashlib.sha256()
    for seed in range(positions):
        state = first_state(game_id, json.loads(options), "random", seed)
        for move in state.legal_moves():
            after = state.clone()
            after.apply(move)
            sha.update(json.dumps(after.dump()).encode())
            sha.update(json.dumps(after.view(None)).encode())
        sha.update(json.dumps(state.dump()).encode())
    return sha.hexdigest()


@pytest.mark.parametrize(("game_id", "options"), sorted(EVERY_MOVE_DIGESTS))
def test_every_move_from_random_positions_is_unchanged(game_id: str, options: str) -> None:
    assert digest_every_move(game_id, options) == EVERY_MOVE_DIGESTS[(game_id, options)]


@pytest.mark.parametrize(("game_id", "options", "start"), sorted(DIGESTS))
def test_random_games_are_unchanged(game_id: str, options: str, start: str) -> None:
    assert digest(game_id, options, start) == DIGESTS[(game_id, options, start)]
