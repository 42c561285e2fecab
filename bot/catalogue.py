"""What players read about each game: a one-line pitch and a rules summary."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CatalogueEntry:
    """A game as `/games` and `/rules` present it."""

    id: str
    name: str
    players: str
    pitch: str
    rules: str


CATALOGUE: dict[str, CatalogueEntry] = {
    entry.id: entry
    for entry in (
        CatalogueEntry(
            "qawale", "Qawale", "2 players",
            "Drop a pebble on a stack, sow the whole stack across the board, show four of "
            "your colour in a line.",
            """**Board.** 4×4 cells, columns a–d, rows 1–4. Two neutral (beige) pebbles on each \
corner to start. Each player has 8 pebbles.
**Your turn.**
1. Put one of your pebbles on top of any stack (never on an empty cell).
2. Pick up that whole stack and sow it, **bottom pebble first**, one pebble per cell: \
the first on a cell next to the stack (no diagonals), each next one next to the previous.
3. You may never step straight back to the cell you just left; loops are fine.
**Winning.** Show four pebbles of your colour *on top of stacks* in a row, a column or a \
long diagonal, once the sowing is over. A line of your opponent's colour makes *them* \
win. A line for both: the sower wins. All 16 pebbles placed and no line: a draw.
**Notation.** `b2:NNE` = put on b2, sow north, north, east.""",
        ),
        CatalogueEntry(
            "graps", "Graps", "2 players",
            "Grow your vine across a 15×15 vineyard to your opponent's land; grapes prune "
            "the enemy vine.",
            """**Board.** 15×15. Dark grows from row 1, Light from row 15; each has 45 pawns.
**Set-up.** Each player places one grape on their own land row.
**Your turn.** The bot rolls your die (one grape face, five blank faces by default): place \
a pawn of that face; if it fits nowhere, you pass.
• *Blank*: next to (side-on) your own vine, not on your land, never touching an enemy \
pawn side-on, never in the 8 cells around an enemy grape.
• *Grape*: on your own land, or next to your own vine. A grape **prunes** every enemy \
pawn around it; enemy branches cut off from their land die.
**Winning.** Place a pawn on your opponent's land. Both stocks empty: the closer vine wins. \
A player who can place nothing at all wins too (you must not block your opponent).""",
        ),
        CatalogueEntry(
            "kraut_ruben", "Kraut & Rüben", "2–5 players",
            "Plant vegetables in shared gardens to fulfil a secret contract; claim your "
            "garden, send snails to spoil the others.",
            """**Material.** 85 tiles in a bag (tomatoes, asparagus, carrots, lettuces, \
clover, dandelions, snails), one garden per player plus one, each 3×4 beds.
**Your secret contract** names a main vegetable, two vegetables that score (more or \
less depending on how many main vegetables the garden shows) and one that costs you.
**Your turn.** Draw a tile and plant it on an empty bed (or play your mole, once per \
game); a snail or a mole covers a tile already planted. After placing, you may claim a \
garden as yours (once); the last bed of a claimed garden is its owner's.
**End.** Your garden full, you are finished; when everyone is, each claimed garden is \
scored with its owner's contract (clover +1, snail −1). Best score wins; a tie goes to \
whoever claimed first. Two players: 5 gardens, 2 each.""",
        ),
        CatalogueEntry(
            "grabuge", "Le Grabuge", "2 players",
            "A 19th-century two-player patience: build shared piles from Ace to King and "
            "win them with the King.",
            """**Material.** Two 52-card decks (4, 6 or 8 with the `decks` option). Each \
player has a talon and a grabuge of 8 cards, top card face up, and up to 4 reserve columns.
**Piles.** Start with an Ace, build up one rank at a time, suits ignored. Whoever \
plays the King wins the pile (a *paquet*).
**Your turn.** First play every card you can from your grabuge (it always comes first), \
then from your reserve. Then turn four cards from your talon: each one that can go on a \
pile must; the others go on your reserve columns, where you choose.
When your talon is empty, your grabuge becomes your talon.
**Score.** Paquets won, +2 for the first to empty their grabuge (before it became a \
talon), +1 per five cards fewer left at the end. Most paquets wins.""",
        ),
        CatalogueEntry(
            "granat", "Granat", "2 players",
            "A draughts-like duel on a diagonal lattice: slow neutral pawns, fast garnet "
            "pawns and a powerful garnet cell.",
            """**Board.** A diagonal lattice of 68 cells and the garnet cell e8 in the \
centre; yellow lines cross the board corner to corner.
**Pawns.** Neutral pawns step forward (and may jump their own pawns). Garnet pawns \
slide any distance along a line and can hand their marble to a neutral pawn.
**Captures** are mandatory: jump an enemy pawn. Neutral pawns capture in chains in every \
direction; garnet pawns chain along yellow lines.
**Garnet cell.** A garnet pawn on e8 protects its whole side for one turn, then must \
leave.
**End.** Capture everything, or leave your opponent without a move. Draw when no neutral \
pawn is left, or after 40 moves without a capture or a neutral move. Lost both garnet pawns? \
You may stop (`/resign`).""",
        ),
    )
}
"""All five games, in the order `/games` lists them."""

OPTION_LABELS: dict[str, str] = {
    "grape_faces": "grape faces on the die",
    "return_pruned": "removed pawns return to their stock",
    "decks": "decks of 52 cards",
    "match_games": "games in the match",
    "mover_wins_double_line": "a double line is won by the sower",
}
"""How each engine option is named to players."""

CHALLENGE_OPTIONS: dict[str, str] = {
    "grape_faces": "grape_faces",
    "return_pruned": "return_pruned",
    "decks": "decks",
    "match_games": "match_games",
    "double_line": "mover_wins_double_line",
}
"""`/challenge` parameter → engine option it sets."""


def describe_options(options: dict[str, object]) -> str:
    """`grape faces on the die: 2 · removed pawns return to their stock: yes` (or '')."""
    def shown(value: object) -> str:
        return {True: "yes", False: "no"}.get(value, str(value))  # type: ignore[call-overload]

    return " · ".join(f"{OPTION_LABELS.get(name, name)}: {shown(value)}"
                      for name, value in options.items())
