"""Kraut & Rüben in Discord: Draw or Mole buttons, a button per garden (the bot picks the bed,
whose place never matters), Take/End, private contracts.

The board shows only the spectator's view; each player's contract reaches them privately:
by direct message when contracts are dealt, and at any time through the **My contract**
button under every board (so a player with closed DMs is never stuck).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import discord

from bot.ai_players import is_ai
from bot.components import GameAction, GameButton, GameSelect
from bot.errors import NotAPlayer, Refusal, UnknownAction
from bot.games.base import (
    AUTOCOMPLETE_LIMIT,
    BoardItem,
    GameUI,
    Notice,
    PrivateNote,
    Table,
    Turn,
    marked_names,
    marked_title,
    seat_event_text,
)
from bot.games.common import close_panel, play_from_panel, play_now, small_number
from bot.replies import Interaction
from engines import EndReason, Result
from engines.kraut_ruben import (
    FIXED_POINTS,
    HIGH_PLUS_POINTS,
    LOW_PLUS_POINTS,
    KrautRubenGameRecord,
    KrautRubenState,
    Phase,
    Place,
    PlayMole,
    Take,
    parse_bed,
    parse_notation,
)
from i18n import N_, _, ngettext
from storage import MoveKind, NewMove

TILE_EMOJI = {
    "tomato": "🍅", "asparagus": "🌿", "carrot": "🥕", "lettuce": "🥬", "clover": "🍀",
    "dandelion": "🌼", "snail": "🐌", "mole": "🕳️",
}
"""One emoji per tile in texts (the picture draws each tile with its own icon and letter)."""

TILE_NAMES = {
    "tomato": N_("tomato"), "asparagus": N_("asparagus"), "carrot": N_("carrot"),
    "lettuce": N_("lettuce"), "clover": N_("clover"), "dandelion": N_("dandelion"),
    "snail": N_("snail"), "mole": N_("mole"),
}
"""Each tile's name, alone (`drawn: carrot`)."""

TILE_A = {
    "tomato": N_("a tomato"), "asparagus": N_("an asparagus"), "carrot": N_("a carrot"),
    "lettuce": N_("a lettuce"), "clover": N_("a clover"), "dandelion": N_("a dandelion"),
    "snail": N_("a snail"), "mole": N_("a mole"),
}
"""Each tile with its indefinite article."""

TILE_THE = {
    "tomato": N_("the tomato"), "asparagus": N_("the asparagus"), "carrot": N_("the carrot"),
    "lettuce": N_("the lettuce"), "clover": N_("the clover"), "dandelion": N_("the dandelion"),
    "snail": N_("the snail"), "mole": N_("the mole"),
}
"""Each tile with its definite article."""

TILE_COUNTED: dict[str, Callable[[int], str]] = {
    "tomato": lambda n: ngettext("{n} tomato", "{n} tomatoes", n),
    "asparagus": lambda n: ngettext("{n} asparagus", "{n} asparagus", n),
    "carrot": lambda n: ngettext("{n} carrot", "{n} carrots", n),
    "lettuce": lambda n: ngettext("{n} lettuce", "{n} lettuces", n),
    "clover": lambda n: ngettext("{n} clover", "{n} clovers", n),
    "dandelion": lambda n: ngettext("{n} dandelion", "{n} dandelions", n),
    "snail": lambda n: ngettext("{n} snail", "{n} snails", n),
    "mole": lambda n: ngettext("{n} mole", "{n} moles", n),
}
"""`3 tomatoes`, `1 snail` (score lines)."""

ROLE_MARK = {"main": "🎯", "high": "⬆️", "low": "↗️", "minus": "⬇️", "fixed": "•"}
SELECT_LIMIT = 25
"""Discord's limit of options in one select menu."""
BUTTONS_PER_ROW = 5
LABEL_LIMIT = 80
"""Discord's limit on a button's label."""

MAIN_COUNTS = ("0", "1", "2", "3", "4", "5", "6+")
"""The columns of the scoring table: how many main vegetables a garden shows."""


def scoring_table(labels: Sequence[str] = ("main veg.", "high plus", "low plus")) -> str:
    """The contract scoring table, aligned in a code block (written out in `rules`, where a
    test checks it against the engine's points; `labels` name its three rows)."""
    width = max(11, max(len(label) for label in labels) + 1)

    def row(name: str, cells: Sequence[object]) -> str:
        return f"{name:<{width}}" + "".join(f"{cell!s:>3}" for cell in cells)

    return "\n".join(["```", row(labels[0], MAIN_COUNTS), row(labels[1], HIGH_PLUS_POINTS),
                      row(labels[2], LOW_PLUS_POINTS), "```"])


Group = tuple[str, list[str]]
"""Interchangeable moves: a key, and the moves in the engine's order (the first is played)."""


def placement_groups(moves: Sequence[str], state: KrautRubenState) -> list[Group]:
    """Placements (or mole moves) grouped when they give the same game: same garden and the
    same stack on the bed. A bed's position never affects scoring or any rule (rules: "A
    bed's position never affects scoring"; the last-bed rule counts empty beds), so which
    of two such beds takes the tile cannot matter. Other moves stay alone."""
    groups: dict[str, list[str]] = {}
    for text in moves:
        parsed = parse_notation(text)
        key = text
        if isinstance(parsed, Place | PlayMole):
            stack = state.gardens[parsed.garden - 1][parsed.bed.index]
            key = f"{type(parsed).__name__}:{parsed.garden}:{','.join(stack)}"
        groups.setdefault(key, []).append(text)
    return list(groups.items())


def by_garden(groups: Sequence[Group]) -> dict[int, list[Group]]:
    """Placement groups by garden number, in garden order."""
    gardens: dict[int, list[Group]] = {}
    for group in groups:
        garden = _garden_of(group[1][0])
        if garden is not None:
            gardens.setdefault(garden, []).append(group)
    return dict(sorted(gardens.items()))


def _garden_of(notation: str) -> int | None:
    """The garden a placement or mole move names (None for any other move)."""
    parsed = parse_notation(notation)
    return parsed.garden if isinstance(parsed, Place | PlayMole) else None


def _clip(text: str, limit: int = LABEL_LIMIT) -> str:
    """`text` cut to Discord's limit with an ellipsis (names can be long)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tile_name(tile: str | None) -> str:
    """A tile's name alone (`carrot`), in the current language."""
    return _(TILE_NAMES[tile]) if tile in TILE_NAMES else _("tile")


def tile_words(tile: str | None, article: str = "a") -> str:
    """`🥕 a carrot` (`an asparagus`; `the carrot` with article "the"), or `a tile` when
    unknown, in the current language."""
    if not tile or tile not in TILE_NAMES:
        return _("the tile") if article == "the" else _("a tile")
    words = _(TILE_THE[tile]) if article == "the" else _(TILE_A[tile])
    return f"{TILE_EMOJI.get(tile, '')} {words}".strip()


def counted(tile: str, count: int) -> str:
    """`3 tomatoes`, `1 snail`, in the current language."""
    if tile in TILE_COUNTED:
        return TILE_COUNTED[tile](count).format(n=count)
    return f"{count} {tile}"


def points_text(points: float) -> str:
    """`1 point`, `-3 points`, `2.5 points`, in the current language."""
    return ngettext("{n} point", "{n} points", int(abs(points))).format(n=f"{points:g}")


def and_list(names: Sequence[str]) -> str:
    """`Alice`, `Alice and Bob`, `Alice, Bob and Carol`, in the current language."""
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def contract_lines(contract: Mapping[str, Any]) -> list[str]:
    """A contract card in words: main, high, low and minus vegetables with their points."""
    high = " ".join(str(p) for p in contract["high_points"])
    low = " ".join(str(p) for p in contract["low_points"])
    fixed = " · ".join(f"{TILE_EMOJI[str(t)]} {tile_name(str(t))} {p:+d}" if p
                       else f"{TILE_EMOJI[str(t)]} {tile_name(str(t))} 0"
                       for t, p in FIXED_POINTS.items())
    main, plus, minor, minus = (contract[key] for key in ("main", "high", "low", "minus"))
    return [
        _("🎯 Main: {emoji} **{tile}** — scores nothing; how many the garden shows "
          "(0, 1, 2, 3, 4, 5, 6+) picks the column below.").format(
            emoji=TILE_EMOJI[main], tile=tile_name(main)),
        _("⬆️ High plus: {emoji} **{tile}** — each: {points}").format(
            emoji=TILE_EMOJI[plus], tile=tile_name(plus), points=high),
        _("↗️ Low plus: {emoji} **{tile}** — each: {points}").format(
            emoji=TILE_EMOJI[minor], tile=tile_name(minor), points=low),
        _("⬇️ Minus: {emoji} **{tile}** — {points} each").format(
            emoji=TILE_EMOJI[minus], tile=tile_name(minus), points=contract["minus_points"]),
        _("Every contract: {fixed}. Only the top tile of a bed counts.").format(fixed=fixed),
    ]


def score_line_text(line: Mapping[str, Any], column: int) -> str:
    """One line of a garden's score (`3 carrots × 2 = 6`), from the engine's figures."""
    tiles = counted(str(line["tile"]), int(line["count"]))
    if line["role"] == "main":
        return _("{tiles}: main vegetable, column {column}").format(tiles=tiles, column=column)
    return _("{tiles} × {each} = {points}").format(tiles=tiles, each=line["each"],
                                                   points=line["points"])


class KrautRubenUI(GameUI[KrautRubenState]):
    """Board: Draw / Mole, then a garden (or a tile to cover), then Take or End; My contract
    answers privately."""

    game_id = "kraut_ruben"
    pitch = N_(
        "Plant vegetables in shared gardens to fulfil a secret contract; claim your garden, "
        "send snails to spoil the others."
    )
    rules = N_(
        "**Material.** 85 tiles in a bag (tomatoes, asparagus, carrots, lettuces, clover, "
        "dandelions, snails), one garden per player plus one, each 3×4 beds.\n"
        "**Your secret contract** names a main vegetable, two vegetables that score (more or "
        "less depending on how many main vegetables the garden shows) and one that costs you.\n"
        "**Your turn.** Draw a tile and plant it on an empty bed (or play your mole, once per"
        " game); a snail or a mole covers a tile already planted. After placing, you may "
        "claim a garden as yours (once); the last bed of a claimed garden is its owner's. "
        "A bed's place in its garden never matters: you choose the garden (and the tile a "
        "snail or mole covers), the bot picks the bed (`/move` may name one).\n"
        "**End.** Your garden full, you are finished; when everyone is, each claimed garden "
        "is scored with its owner's contract. Best score wins; a tie goes to whoever claimed "
        "first. Two players: 5 gardens, 2 each, scored one by one.\n"
        "**Scoring** (only the top tile of each bed counts). Each plus vegetable scores, per "
        "tile, by how many main vegetables the garden shows:\n"
        "```\n"
        "main veg.    0  1  2  3  4  5 6+\n"
        "high plus    2  3  4  3  2  1  0\n"
        "low plus     1  2  3  2  1  0  0\n"
        "```\n"
        "The main vegetable itself scores 0, the minus vegetable -2 each, clover "
        "+1, snail -1, dandelion and mole 0."
    )
    """The rules (written out whole to be translated; a test checks the table and points
    against the engine's)."""

    def _who(self, table: Table[KrautRubenState], seat: int) -> str:
        return f"{self.seat_badge(seat)} **{marked_names(table)[seat]}**"

    # -- texts ---------------------------------------------------------------------------

    def status(self, table: Table[KrautRubenState]) -> str:
        state = table.state
        parts = []
        if state.options["match_games"] > 1:
            parts.append(_("game {number} of {games}").format(
                number=state.game_number, games=state.options["match_games"]))
        parts.append(ngettext("bag: {n} tile", "bag: {n} tiles", state.bag_count).format(
            n=state.bag_count))
        if state.drawn_tile is not None:
            parts.append(_("drawn: {tile}").format(tile=tile_name(str(state.drawn_tile))))
        return " · ".join(parts)

    def result_text(self, table: Table[KrautRubenState], result: Result) -> str:
        if EndReason(result.reason).by_a_seat or not result.scores:
            return super().result_text(table, result)
        names = marked_names(table)
        scores = result.scores
        others = " · ".join(f"{names[s]} {scores[s]:g}" for s in range(len(names))
                            if s not in result.winners)
        winners = and_list([names[s] for s in result.winners])
        best = scores[result.winners[0]]
        points = points_text(best)
        if result.reason == EndReason.MATCH_TOTAL:
            if len(result.winners) > 1:
                text = _("🏆 {winners} share the match with {points} over three games "
                         "({others}).")
            else:
                text = _("🏆 {winners} wins the match with {points} over three games "
                         "({others}).")
            return text.format(winners=winners, points=points, others=others)
        tied = [s for s in range(len(names)) if scores[s] == best]
        if len(tied) > 1:
            text = _("🏆 {winners} wins with {points} ({others}) — tie broken: took a garden "
                     "first.")
        else:
            text = _("🏆 {winners} wins with {points} ({others}).")
        return text.format(winners=winners, points=points, others=others)

    def describe(self, table: Table[KrautRubenState], move: NewMove) -> str:
        return self._line(table, move, None) or ""

    def summarize(self, table: Table[KrautRubenState], moves: Sequence[NewMove]) -> list[str]:
        state = table.state
        lines: list[str] = []
        drawn: str | None = None
        dealt = False
        # The line saying a player draws (its index, who): the tile drawn completes it.
        drawing: tuple[int, str] | None = None
        for move in moves:
            if move.kind is MoveKind.CHANCE:
                if move.move.startswith("contract:"):
                    # Never show which contract went where: the thread is public.
                    if not dealt:
                        dealt = True
                        if state.game_number > 1 and state.records:
                            done = state.records[-1]["game_number"]
                            lines.append(_("🏁 Game {number} of {games} is over: the scores "
                                           "are below.").format(
                                number=done, games=state.options["match_games"]))
                        lines.append(_("🎴 Contracts dealt for game {number}: each player got "
                                       "theirs privately (by DM, or with **My contract**).")
                                     .format(number=state.game_number))
                elif move.move.startswith("draw:"):
                    drawn = move.move.split(":", 1)[1]
                    if drawing is not None and drawing[0] == len(lines) - 1:
                        lines[-1] = _("{who} drew {tile}.").format(
                            who=drawing[1], tile=tile_words(drawn))
                    drawing = None
                continue
            line = self._line(table, move, drawn)
            if line:
                lines.append(line)
                if move.seat is not None and move.move.strip().lower() == "draw":
                    drawing = (len(lines) - 1, self._who(table, move.seat))
        return lines

    def _line(self, table: Table[KrautRubenState], move: NewMove, drawn: str | None) -> str | None:
        """One log line for a player's (or forced) move; None for a hidden chance event."""
        if move.seat is None:
            if move.move.startswith("contract:"):
                return None
            return _("🎲 {tile} comes out of the bag.").format(
                tile=tile_words(move.move.split(":", 1)[1]))
        who = self._who(table, move.seat)
        event = seat_event_text(who, move)
        if event is not None:
            return event
        forced = move.kind is MoveKind.FORCED
        state = table.state
        try:
            parsed = parse_notation(move.move)
        except ValueError:
            return _("{who} played `{move}`.").format(who=who, move=move.move)
        text = str(parsed)
        if text == "draw":
            return _("{who} draws from the bag…").format(who=who)
        if text == "end":
            return _("{who} ends the turn without taking a garden.").format(who=who)
        if text == "discard":
            return _("{who} cannot place {tile} anywhere: it is discarded (forced).").format(
                who=who, tile=tile_words(drawn, "the"))
        if isinstance(parsed, Take):
            if forced:
                return _("{who} **had to take garden {garden}** (no other garden is left for "
                         "them to claim in time).").format(who=who, garden=parsed.garden)
            return _("{who} **takes garden {garden}** as theirs.").format(
                who=who, garden=parsed.garden)
        if not isinstance(parsed, Place | PlayMole):
            return _("{who} played `{move}`.").format(who=who, move=move.move)
        garden, bed = parsed.garden, parsed.bed
        stack = state.gardens[garden - 1][parse_bed(str(bed)).index]
        tile = stack[-1] if stack else drawn
        covered = _(", covering {tile}").format(tile=tile_words(stack[-2])) \
            if len(stack) > 1 else ""
        only = _(" (the only place it could go)") if forced else ""
        where = _("garden {garden}, bed {bed}").format(garden=garden, bed=bed)
        if isinstance(parsed, PlayMole):
            text = _("{who} plays their mole {emoji} on {where}{covered}{only}.")
        elif tile == "snail":
            text = _("{who} sends {tile} on {where}{covered}{only}.")
        else:
            text = _("{who} plants {tile} on {where}{covered}{only}.")
        return text.format(who=who, emoji=TILE_EMOJI["mole"], tile=tile_words(tile, "the"),
                           where=where, covered=covered, only=only)

    # -- the board -------------------------------------------------------------------------

    def board_items(self, table: Table[KrautRubenState]) -> list[BoardItem]:
        state = table.state
        sid, ply = table.id, table.ply
        items: list[BoardItem] = []
        if (state.phase is Phase.CHOOSE and state.must_take()) or state.phase is Phase.TAKE:
            buttons = [GameButton(sid, ply, "take", str(g),
                                  label=_("Take garden {garden}").format(garden=g),
                                  emoji="🏡", style=discord.ButtonStyle.success)
                       for g in state.takeable_gardens()]
            if state.can_end_turn():
                buttons.append(GameButton(sid, ply, "end", label=_("End turn"), emoji="⏭️",
                                          style=discord.ButtonStyle.secondary))
            for index, button in enumerate(buttons):
                button.item.row = index // 5
                items.append(button)
        elif state.phase is Phase.CHOOSE:
            if state.can_draw():
                items.append(GameButton(sid, ply, "draw", label=_("Draw a tile"), emoji="🎒",
                                        style=discord.ButtonStyle.primary, row=0))
            if state.can_play_mole():
                items.append(GameButton(sid, ply, "mole", label=_("Play my mole"),
                                        emoji=TILE_EMOJI["mole"],
                                        style=discord.ButtonStyle.secondary, row=0))
        elif state.phase is Phase.PLACE:
            items += self._placement_items(table)
        items.append(GameButton(sid, None, "contract", label=_("My contract"), emoji="📜",
                                style=discord.ButtonStyle.secondary, row=4))
        return items

    def obvious_move(self, state: KrautRubenState) -> str | None:
        """The first bed when every legal move lands the same way (one garden, one kind of
        bed): the bed's position cannot matter, so there is nothing to ask."""
        groups = placement_groups([str(m) for m in state.legal_moves()], state)
        return groups[0][1][0] if len(groups) == 1 else None

    def _placement_items(self, table: Table[KrautRubenState]) -> list[BoardItem]:
        """Where the drawn tile goes: one button per garden when a garden's beds are all
        alike (a plant on empty beds), else one menu of the distinct choices, else gardens
        first."""
        state = table.state
        tile = str(state.drawn_tile)
        groups = placement_groups([str(p) for p in state.placements()], state)
        gardens = by_garden(groups)
        if all(len(choices) == 1 for choices in gardens.values()) \
                or len(groups) > SELECT_LIMIT:
            return self._garden_buttons(table, "place", "garden", gardens)
        placeholder = _("Where does {tile} go?").format(tile=tile_words(tile, "the"))
        return [self._bed_select(table, "place", groups, placeholder)]

    def _garden_buttons(self, table: Table[KrautRubenState], play: str, ask: str,
                        gardens: Mapping[int, Sequence[Group]]) -> list[BoardItem]:
        """One button per garden: it plays at once where the garden offers one choice, and
        asks which tile to cover (action `ask`) where it offers several."""
        state = table.state
        emoji = TILE_EMOJI.get(str(state.drawn_tile or "mole"))
        buttons: list[BoardItem] = []
        for index, (garden, choices) in enumerate(gardens.items()):
            label, detail = self._garden_label(table, garden)
            single = len(choices) == 1
            action, arg = (play, choices[0][1][0]) if single else (ask, str(garden))
            buttons.append(GameButton(
                table.id, table.ply, action, arg, label=_clip(f"{label} · {detail}"),
                emoji=emoji, style=discord.ButtonStyle.primary, row=index // BUTTONS_PER_ROW))
        return buttons

    def _garden_label(self, table: Table[KrautRubenState], garden: int) -> tuple[str, str]:
        state = table.state
        owner = state.owners[garden - 1]
        whose = _("{name}'s").format(name=table.names[owner]) if owner is not None \
            else _("no owner yet")
        empty = len(state.empty_beds(garden))
        beds = ngettext("{n} empty bed", "{n} empty beds", empty).format(n=empty)
        return _("Garden {garden}").format(garden=garden), f"{whose} · {beds}"

    def _garden_select(self, table: Table[KrautRubenState], action: str, gardens: Sequence[int],
                       placeholder: str) -> GameSelect:
        options = []
        for garden in gardens:
            label, description = self._garden_label(table, garden)
            options.append(discord.SelectOption(label=_clip(label, 100), value=str(garden),
                                                description=_clip(description, 100)))
        return GameSelect(table.id, table.ply, action, options=options,
                          placeholder=placeholder, row=0)

    def _bed_select(self, table: Table[KrautRubenState], action: str, groups: Sequence[Group],
                    placeholder: str) -> GameSelect:
        """One option per distinct choice (`3B2` or `mole 3B2`: the first bed of its kind),
        saying what lies there now."""
        state = table.state
        options = []
        for _key, moves in groups:
            parsed = parse_notation(moves[0])
            if not isinstance(parsed, Place | PlayMole):
                continue
            garden, bed = parsed.garden, parsed.bed
            top = state.top(garden, bed)
            here = _("covers {tile}").format(tile=tile_words(str(top))) if top \
                else _("an empty bed")
            owner = state.owners[garden - 1]
            whose = _(" · {name}'s garden").format(name=table.names[owner]) \
                if owner is not None else ""
            alike = _(" · {n} alike").format(n=len(moves)) if len(moves) > 1 else ""
            options.append(discord.SelectOption(
                label=_clip(_("Garden {garden} · {here}").format(garden=garden, here=here)),
                value=moves[0],
                description=_clip(_("bed {bed}").format(bed=bed) + alike + whose, 100)))
        return GameSelect(table.id, table.ply, action, options=options,
                          placeholder=placeholder, row=0)

    # -- components ------------------------------------------------------------------------

    async def handle(
        self, interaction: Interaction, table: Table[KrautRubenState], act: GameAction,
        values: list[str],
    ) -> None:
        action, arg = act.action, act.arg
        user = interaction.user.id
        if action == "contract":
            await self._show_contract(interaction, table)
        elif action in ("draw", "end", "take", "place"):
            move = {"draw": "draw", "end": "end", "take": f"take {arg}"}.get(action)
            move = move or (values[0] if values else arg)
            await play_now(interaction, table, move, act.ply)
        elif action in ("garden", "mole", "molegarden"):
            table.seat_to_act(user, expected_ply=act.ply)
            chosen = values[0] if values else arg
            single = self._single_choice(table, action, chosen)
            if single is not None:  # never a menu of one entry: play it
                player = play_from_panel if action == "molegarden" else play_now
                await player(interaction, table, single, act.ply)
                return
            content, view = self._composer(table, action, chosen)
            if action == "molegarden":
                await interaction.response.edit_message(content=content, view=view)
            else:
                await interaction.response.send_message(content, view=view, ephemeral=True)
        elif action in ("placebed", "molebed"):
            await play_from_panel(interaction, table, values[0], act.ply)
        elif action == "cancel":
            await close_panel(interaction,
                              _("Cancelled: use the board's controls to choose again."))
        else:
            raise UnknownAction(_("This Kraut & Rüben control is no longer in use "
                                  "({action}).").format(action=repr(action)))

    def _choices(self, table: Table[KrautRubenState], action: str, chosen: str) -> list[Group]:
        """The distinct choices behind a garden button or the mole: grouped placements."""
        state = table.state
        if action == "garden":
            garden = small_number(chosen, N_("garden"), len(state.gardens))
            moves = [f"{garden}{bed}" for bed in state.placement_beds(garden)]
            if not moves:
                raise Refusal(_("No bed of garden {garden} can take this tile.").format(
                    garden=garden))
            return placement_groups(moves, state)
        targets = [str(m) for m in state.mole_targets()] if state.can_play_mole() else []
        if action == "molegarden":
            garden = small_number(chosen, N_("garden"), len(state.gardens))
            targets = [t for t in targets if _garden_of(t) == garden]
        if not targets:
            raise Refusal(_("Your mole has nowhere to dig now."))
        return placement_groups(targets, state)

    def _single_choice(self, table: Table[KrautRubenState], action: str,
                       chosen: str) -> str | None:
        """The move to play at once when the choice asked has only one distinct answer."""
        groups = self._choices(table, action, chosen)
        return groups[0][1][0] if len(groups) == 1 else None

    def _composer(self, table: Table[KrautRubenState], action: str,
                  chosen: str) -> tuple[str, discord.ui.View]:
        """The private second step: which tile to cover in the chosen garden, or where the
        mole may dig."""
        state = table.state
        view = discord.ui.View(timeout=None)
        groups = self._choices(table, action, chosen)
        if action == "garden":
            tile = str(state.drawn_tile)
            content = ngettext(
                "{emoji} Your {tile}: which tile of **garden {garden}** does it cover? "
                "({n} choice)",
                "{emoji} Your {tile}: which tile of **garden {garden}** does it cover? "
                "({n} choices)", len(groups)).format(
                emoji=TILE_EMOJI.get(tile, ""), tile=tile_name(tile), garden=chosen,
                n=len(groups)).strip()
            view.add_item(self._bed_select(table, "placebed", groups, _("Cover which tile?")))
        elif len(groups) <= SELECT_LIMIT:
            content = _("{emoji} Your mole covers a tile for good (once per game): choose "
                        "which.").format(emoji=TILE_EMOJI["mole"])
            view.add_item(self._bed_select(table, "molebed", groups, _("Cover which tile?")))
        else:
            content = _("{emoji} Your mole: first choose a garden.").format(
                emoji=TILE_EMOJI["mole"])
            view.add_item(self._garden_select(table, "molegarden", state.mole_gardens(),
                                              _("Choose a garden…")))
        view.add_item(GameButton(table.id, table.ply, "cancel", label=_("Cancel"), emoji="✖️",
                                 style=discord.ButtonStyle.secondary, row=1))
        return content, view

    async def _show_contract(self, interaction: Interaction,
                             table: Table[KrautRubenState]) -> None:
        seat = table.record.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer(_("You are not playing in {game}: contracts are secret until the "
                               "end of the game.").format(game=marked_title(table)))
        await interaction.response.send_message(self.contract_text(table, seat),
                                                ephemeral=True)

    def contract_text(self, table: Table[KrautRubenState], seat: int) -> str:
        """A seat's contract and what each garden would score with it now (from its view)."""
        names = marked_names(table)
        view = table.state.view(seat)
        contract = view["your_contract"]
        if contract is None:
            return _("Your contract has not been dealt yet.")
        game = (_(", game {number} of {games}").format(number=view["game_number"],
                                                       games=view["match_games"])
                if view["match_games"] > 1 else "")
        lines = [_("📜 **Your secret contract: No. {number}** — {game_title} (#{id}{game})")
                 .format(number=contract["number"], game_title=marked_title(table),
                         id=table.id,
                         game=game),
                 *contract_lines(contract), "",
                 _("**What each garden would score for you now:**")]
        for garden, points in zip(view["gardens"], view["your_garden_points"] or [], strict=True):
            owner = garden["owner"]
            if owner == seat:
                text = ngettext("Garden {garden}: **{n}** point ← yours",
                                "Garden {garden}: **{n}** points ← yours", abs(points))
            elif owner is not None:
                text = ngettext("Garden {garden}: **{n}** point ({name}'s)",
                                "Garden {garden}: **{n}** points ({name}'s)", abs(points))
            else:
                text = ngettext("Garden {garden}: **{n}** point",
                                "Garden {garden}: **{n}** points", abs(points))
            lines.append(text.format(garden=garden["number"], n=points,
                                     name=names[owner] if owner is not None else ""))
        return "\n".join(lines)

    # -- after the board --------------------------------------------------------------------

    def after_announce(
        self, table: Table[KrautRubenState], turn: Turn
    ) -> list[Notice | PrivateNote]:
        """Scores of a game just finished, then each player's new contract, privately."""
        state = table.state
        dealt = any(m.kind is MoveKind.CHANCE and m.move.startswith("contract:")
                    for m in turn.moves)
        resigned = any(m.kind in (MoveKind.RESIGN, MoveKind.TIMEOUT) for m in turn.moves)
        ended: list[KrautRubenGameRecord] = []
        if dealt and state.game_number > 1:
            ended.append(state.records[state.game_number - 2])
        if state.is_over() and not resigned and state.records:
            ended.append(state.records[-1])
        notices: list[Notice | PrivateNote] = [
            Notice(self.score_embed(table, summary, state)) for summary in ended]
        if dealt:
            notices += self.contract_notes(table)
        return notices

    def contract_notes(self, table: Table[KrautRubenState]) -> list[PrivateNote]:
        """Each player's contract by DM; a pointer to **My contract** when DMs are closed."""
        notes = []
        for seat in range(len(table.names)):
            user_id = table.record.user_at(seat)
            if is_ai(user_id):
                continue  # an AI has no DMs: its "could not DM you" would ping nobody
            notes.append(PrivateNote(
                user_id, partial(self.contract_text, table, seat),
                fallback=partial(self.no_dm_text, user_id)))
        return notes

    @staticmethod
    def no_dm_text(user_id: int) -> str:
        """Said in the thread when a member's contract could not be sent by DM."""
        return _("<@{user}>, I could not DM you: use the **My contract** button under the "
                 "board to see your contract.").format(user=user_id)

    def score_embed(self, table: Table[KrautRubenState], summary: Mapping[str, Any],
                    state: KrautRubenState) -> discord.Embed:
        """One finished game: contracts revealed, each garden's score line by line, winner."""
        names = marked_names(table)  # field names render markdown too
        match = state.options["match_games"]
        number = summary["game_number"]
        title = (_("🏁 Game {number} of {games} — scores").format(number=number, games=match)
                 if match > 1 else _("🏁 Final scores"))
        players = summary["players"]
        best = max(p["total"] for p in players)
        leaders = [p["seat"] for p in players if p["total"] == best]
        embed = discord.Embed(title=title, colour=discord.Colour.gold())
        gardens = {g["number"]: g for g in summary["gardens"]}
        for player in players:
            seat = player["seat"]
            contract = player["contract"]
            lines = []
            if contract:
                lines.append(_("Contract No. {number}: main {main}, high {high}, low {low}, "
                               "minus {minus}").format(
                    number=contract["number"], main=tile_name(contract["main"]),
                    high=tile_name(contract["high"]), low=tile_name(contract["low"]),
                    minus=tile_name(contract["minus"])))
            for number_ in player["gardens"]:
                score = gardens[number_]["score"]
                if not score:
                    continue
                lines.append(_("**Garden {garden}** — {points}").format(
                    garden=number_, points=points_text(score["total"])))
                lines += [f"{ROLE_MARK.get(line['role'], '•')} "
                          f"{TILE_EMOJI.get(line['tile'], '')} "
                          f"{score_line_text(line, score['column'])}"
                          for line in score["lines"]]
            if not player["gardens"]:
                lines.append(_("No garden: 0 points."))
            if player["cup"]:
                lines.append(_("🏆 The cup (first to take a garden): +{points}").format(
                    points=player["cup"]))
            name = f"{self.seat_badge(seat)} {names[seat]} — {points_text(player['total'])}"
            embed.add_field(name=_clip(name, 256), value=_clip("\n".join(lines), 1024) or "—",
                            inline=False)
        spare = [g["number"] for g in summary["gardens"] if g["owner"] is None]
        notes = []
        if spare:
            notes.append(ngettext("Garden {gardens} had no owner and scores for nobody.",
                                  "Gardens {gardens} had no owner and score for nobody.",
                                  len(spare)).format(gardens=", ".join(map(str, spare))))
        if match > 1:
            totals = state.match_totals() if state.is_over() else [
                sum(r["players"][s]["total"] for r in state.records[:number])
                for s in range(len(names))]
            notes.append(_("**Match totals:** {totals}").format(totals=" · ".join(
                f"{self.seat_badge(s)} {names[s]} {totals[s]}" for s in range(len(names)))))
        else:
            result = state.result()
            winner = result.winners[0] if result else leaders[0]
            notes.append(_("**Winner: {badge} {name}**").format(
                badge=self.seat_badge(winner), name=names[winner]))
        embed.description = "\n".join(notes)
        return embed

    # -- typing ------------------------------------------------------------------------------

    def autocomplete(self, table: Table[KrautRubenState], typed: str) -> list[str]:
        state = table.state
        player = state.current_player
        if player is None or player < 0:
            return []
        wanted = "".join(typed.split()).lower()
        texts = [str(m) for m in state.legal_moves()]
        return [t for t in texts
                if "".join(t.split()).lower().startswith(wanted)][:AUTOCOMPLETE_LIMIT]
