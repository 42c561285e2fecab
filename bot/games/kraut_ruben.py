"""Kraut & Rüben in Discord: Draw or Mole buttons, a button per garden (the bot picks the bed,
whose place never matters), Take/End, private contracts.

The board shows only the spectator's view; each player's contract reaches them privately:
by direct message when contracts are dealt, and at any time through the **My contract**
button under every board (so a player with closed DMs is never stuck).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import discord

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
    plural,
    seat_event_text,
)
from bot.games.common import close_panel, play_from_panel, play_now, small_number
from bot.replies import Interaction
from engines import EndReason, Result
from engines.kraut_ruben import (
    FIXED_POINTS,
    HIGH_PLUS_POINTS,
    LOW_PLUS_POINTS,
    MINUS_POINTS,
    KrautRubenGameRecord,
    KrautRubenState,
    Phase,
    Place,
    PlayMole,
    Take,
    Tile,
    parse_bed,
    parse_notation,
)
from storage import MoveKind, NewMove

TILE_EMOJI = {
    "tomato": "🍅", "asparagus": "🌿", "carrot": "🥕", "lettuce": "🥬", "clover": "🍀",
    "dandelion": "🌼", "snail": "🐌", "mole": "🕳️",
}
"""One emoji per tile in texts (the picture draws each tile with its own icon and letter)."""

ROLE_MARK = {"main": "🎯", "high": "⬆️", "low": "↗️", "minus": "⬇️", "fixed": "•"}
SELECT_LIMIT = 25
"""Discord's limit of options in one select menu."""
BUTTONS_PER_ROW = 5
LABEL_LIMIT = 80
"""Discord's limit on a button's label."""

MAIN_COUNTS = ("0", "1", "2", "3", "4", "5", "6+")
"""The columns of the scoring table: how many main vegetables a garden shows."""


def scoring_table() -> str:
    """The contract scoring table, aligned in a code block (for `/rules`)."""

    def row(name: str, cells: Sequence[object]) -> str:
        return f"{name:<11}" + "".join(f"{cell!s:>3}" for cell in cells)

    return "\n".join(["```", row("main veg.", MAIN_COUNTS), row("high plus", HIGH_PLUS_POINTS),
                      row("low plus", LOW_PLUS_POINTS), "```"])


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


def tile_words(tile: str | None, article: str = "a") -> str:
    """`🥕 a carrot` (`an asparagus`), or `a tile` when unknown."""
    if not tile:
        return "a tile"
    if article == "a" and tile[0] in "aeiou":
        article = "an"
    return f"{TILE_EMOJI.get(tile, '')} {article} {tile}".strip()


def contract_lines(contract: Mapping[str, Any]) -> list[str]:
    """A contract card in words: main, high, low and minus vegetables with their points."""
    high = " ".join(str(p) for p in contract["high_points"])
    low = " ".join(str(p) for p in contract["low_points"])
    fixed = " · ".join(f"{TILE_EMOJI[str(t)]} {t} {p:+d}" if p else f"{TILE_EMOJI[str(t)]} {t} 0"
                       for t, p in FIXED_POINTS.items())
    main = contract["main"]
    return [
        f"🎯 Main: {TILE_EMOJI[main]} **{main}** — scores nothing; how many the garden shows "
        "(0, 1, 2, 3, 4, 5, 6+) picks the column below.",
        f"⬆️ High plus: {TILE_EMOJI[contract['high']]} **{contract['high']}** — each: {high}",
        f"↗️ Low plus: {TILE_EMOJI[contract['low']]} **{contract['low']}** — each: {low}",
        f"⬇️ Minus: {TILE_EMOJI[contract['minus']]} **{contract['minus']}** — "
        f"{contract['minus_points']} each",
        f"Every contract: {fixed}. Only the top tile of a bed counts.",
    ]


class KrautRubenUI(GameUI[KrautRubenState]):
    """Board: Draw / Mole, then a garden (or a tile to cover), then Take or End; My contract
    answers privately."""

    game_id = "kraut_ruben"
    pitch = (
        "Plant vegetables in shared gardens to fulfil a secret contract; claim your garden, "
        "send snails to spoil the others."
    )
    rules = (
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
        + scoring_table() + "\n"
        f"The main vegetable itself scores 0, the minus vegetable {MINUS_POINTS} each, clover "
        f"+{FIXED_POINTS[Tile.CLOVER]}, snail {FIXED_POINTS[Tile.SNAIL]}, dandelion and mole 0."
    )

    def _who(self, table: Table[KrautRubenState], seat: int) -> str:
        return f"{self.seat_badge(seat)} **{table.names[seat]}**"

    # -- texts ---------------------------------------------------------------------------

    def status(self, table: Table[KrautRubenState]) -> str:
        state = table.state
        parts = []
        if state.options["match_games"] > 1:
            parts.append(f"game {state.game_number} of {state.options['match_games']}")
        parts.append(f"bag: {state.bag_count} tiles")
        if state.drawn_tile is not None:
            parts.append(f"drawn: {state.drawn_tile}")
        return " · ".join(parts)

    def result_text(self, table: Table[KrautRubenState], result: Result) -> str:
        if EndReason(result.reason).by_a_seat or not result.scores:
            return super().result_text(table, result)
        names = table.names
        scores = result.scores
        others = " · ".join(f"{names[s]} {scores[s]:g}" for s in range(len(names))
                            if s not in result.winners)
        winners = " and ".join(names[s] for s in result.winners)
        best = scores[result.winners[0]]
        if result.reason == EndReason.MATCH_TOTAL:
            verb = "share the match" if len(result.winners) > 1 else "wins the match"
            return f"🏆 {winners} {verb} with {best:g} points over three games ({others})."
        tied = [s for s in range(len(names)) if scores[s] == best]
        tie = " — tie broken: took a garden first" if len(tied) > 1 else ""
        return f"🏆 {winners} wins with {best:g} points ({others}){tie}."

    def describe(self, table: Table[KrautRubenState], move: NewMove) -> str:
        return self._line(table, move, None) or ""

    def summarize(self, table: Table[KrautRubenState], moves: Sequence[NewMove]) -> list[str]:
        state = table.state
        lines: list[str] = []
        drawn: str | None = None
        dealt = False
        for move in moves:
            if move.kind is MoveKind.CHANCE:
                if move.move.startswith("contract:"):
                    # Never show which contract went where: the thread is public.
                    if not dealt:
                        dealt = True
                        if state.game_number > 1 and state.records:
                            done = state.records[-1]["game_number"]
                            lines.append(f"🏁 Game {done} of {state.options['match_games']} "
                                         "is over: the scores are below.")
                        lines.append(f"🎴 Contracts dealt for game {state.game_number}: each "
                                     "player got theirs privately (by DM, or with **My "
                                     "contract**).")
                elif move.move.startswith("draw:"):
                    drawn = move.move.split(":", 1)[1]
                    if lines and lines[-1].endswith("draws from the bag…"):
                        lines[-1] = lines[-1].replace("draws from the bag…",
                                                      f"drew {tile_words(drawn)}.")
                continue
            line = self._line(table, move, drawn)
            if line:
                lines.append(line)
        return lines

    def _line(self, table: Table[KrautRubenState], move: NewMove, drawn: str | None) -> str | None:
        """One log line for a player's (or forced) move; None for a hidden chance event."""
        if move.seat is None:
            if move.move.startswith("contract:"):
                return None
            return f"🎲 {tile_words(move.move.split(':', 1)[1])} comes out of the bag."
        who = self._who(table, move.seat)
        event = seat_event_text(who, move)
        if event is not None:
            return event
        forced = move.kind is MoveKind.FORCED
        state = table.state
        try:
            parsed = parse_notation(move.move)
        except ValueError:
            return f"{who} played `{move.move}`."
        text = str(parsed)
        if text == "draw":
            return f"{who} draws from the bag…"
        if text == "end":
            return f"{who} ends the turn without taking a garden."
        if text == "discard":
            return (f"{who} cannot place {tile_words(drawn, 'the')} anywhere: "
                    "it is discarded (forced).")
        if isinstance(parsed, Take):
            if forced:
                return (f"{who} **had to take garden {parsed.garden}** (no other garden is left "
                        "for them to claim in time).")
            return f"{who} **takes garden {parsed.garden}** as theirs."
        if not isinstance(parsed, Place | PlayMole):
            return f"{who} played `{move.move}`."
        garden, bed = parsed.garden, parsed.bed
        stack = state.gardens[garden - 1][parse_bed(str(bed)).index]
        tile = stack[-1] if stack else drawn
        covered = f", covering {tile_words(stack[-2])}" if len(stack) > 1 else ""
        only = " (the only place it could go)" if forced else ""
        where = f"garden {garden}, bed {bed}"
        if isinstance(parsed, PlayMole):
            return f"{who} plays their mole {TILE_EMOJI['mole']} on {where}{covered}{only}."
        verb = "sends" if tile == "snail" else "plants"
        return f"{who} {verb} {tile_words(tile, 'the')} on {where}{covered}{only}."

    # -- the board -------------------------------------------------------------------------

    def board_items(self, table: Table[KrautRubenState]) -> list[BoardItem]:
        state = table.state
        sid, ply = table.id, table.ply
        items: list[BoardItem] = []
        if (state.phase is Phase.CHOOSE and state.must_take()) or state.phase is Phase.TAKE:
            buttons = [GameButton(sid, ply, "take", str(g), label=f"Take garden {g}",
                                  emoji="🏡", style=discord.ButtonStyle.success)
                       for g in state.takeable_gardens()]
            if state.can_end_turn():
                buttons.append(GameButton(sid, ply, "end", label="End turn", emoji="⏭️",
                                          style=discord.ButtonStyle.secondary))
            for index, button in enumerate(buttons):
                button.item.row = index // 5
                items.append(button)
        elif state.phase is Phase.CHOOSE:
            if state.can_draw():
                items.append(GameButton(sid, ply, "draw", label="Draw a tile", emoji="🎒",
                                        style=discord.ButtonStyle.primary, row=0))
            if state.can_play_mole():
                items.append(GameButton(sid, ply, "mole", label="Play my mole",
                                        emoji=TILE_EMOJI["mole"],
                                        style=discord.ButtonStyle.secondary, row=0))
        elif state.phase is Phase.PLACE:
            items += self._placement_items(table)
        items.append(GameButton(sid, None, "contract", label="My contract", emoji="📜",
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
        return [self._bed_select(table, "place", groups, f"Where does the {tile} go?")]

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
        whose = f"{table.names[owner]}'s" if owner is not None else "no owner yet"
        empty = len(state.empty_beds(garden))
        return f"Garden {garden}", f"{whose} · {plural(empty, 'empty bed')}"

    def _garden_select(self, table: Table[KrautRubenState], action: str, gardens: Sequence[int],
                       placeholder: str) -> GameSelect:
        options = []
        for garden in gardens:
            label, description = self._garden_label(table, garden)
            options.append(discord.SelectOption(label=label, value=str(garden),
                                                description=description[:100]))
        return GameSelect(table.id, table.ply, action, options=options,
                          placeholder=placeholder, row=0)

    def _bed_select(self, table: Table[KrautRubenState], action: str, groups: Sequence[Group],
                    placeholder: str) -> GameSelect:
        """One option per distinct choice (`3B2` or `mole 3B2`: the first bed of its kind),
        saying what lies there now."""
        state = table.state
        options = []
        for _, moves in groups:
            parsed = parse_notation(moves[0])
            if not isinstance(parsed, Place | PlayMole):
                continue
            garden, bed = parsed.garden, parsed.bed
            top = state.top(garden, bed)
            here = f"covers {tile_words(str(top))}" if top else "an empty bed"
            owner = state.owners[garden - 1]
            whose = f" · {table.names[owner]}'s garden" if owner is not None else ""
            alike = f" · {len(moves)} alike" if len(moves) > 1 else ""
            options.append(discord.SelectOption(
                label=_clip(f"Garden {garden} · {here}"), value=moves[0],
                description=f"bed {bed}{alike}{whose}"[:100]))
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
            await close_panel(interaction, "Cancelled: use the board's controls to choose again.")
        else:
            raise UnknownAction(f"This Kraut & Rüben control is no longer in use ({action!r}).")

    def _choices(self, table: Table[KrautRubenState], action: str, chosen: str) -> list[Group]:
        """The distinct choices behind a garden button or the mole: grouped placements."""
        state = table.state
        if action == "garden":
            garden = small_number(chosen, "garden", len(state.gardens))
            moves = [f"{garden}{bed}" for bed in state.placement_beds(garden)]
            if not moves:
                raise Refusal(f"No bed of garden {garden} can take this tile.")
            return placement_groups(moves, state)
        targets = [str(m) for m in state.mole_targets()] if state.can_play_mole() else []
        if action == "molegarden":
            garden = small_number(chosen, "garden", len(state.gardens))
            targets = [t for t in targets if _garden_of(t) == garden]
        if not targets:
            raise Refusal("Your mole has nowhere to dig now.")
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
            content = (f"{tile_words(tile, 'Your')}: which tile of **garden {chosen}** does it "
                       f"cover? ({len(groups)} choices)")
            view.add_item(self._bed_select(table, "placebed", groups, "Cover which tile?"))
        elif len(groups) <= SELECT_LIMIT:
            content = (f"{TILE_EMOJI['mole']} Your mole covers a tile for good (once per "
                       "game): choose which.")
            view.add_item(self._bed_select(table, "molebed", groups, "Cover which tile?"))
        else:
            content = f"{TILE_EMOJI['mole']} Your mole: first choose a garden."
            view.add_item(self._garden_select(table, "molegarden", state.mole_gardens(),
                                              "Choose a garden…"))
        view.add_item(GameButton(table.id, table.ply, "cancel", label="Cancel", emoji="✖️",
                                 style=discord.ButtonStyle.secondary, row=1))
        return content, view

    async def _show_contract(self, interaction: Interaction,
                             table: Table[KrautRubenState]) -> None:
        seat = table.record.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer(f"You are not playing in {table.title}: contracts are secret "
                             "until the end of the game.")
        await interaction.response.send_message(self.contract_text(table, seat),
                                                ephemeral=True)

    def contract_text(self, table: Table[KrautRubenState], seat: int) -> str:
        """A seat's contract and what each garden would score with it now (from its view)."""
        view = table.state.view(seat)
        contract = view["your_contract"]
        if contract is None:
            return "Your contract has not been dealt yet."
        game = (f", game {view['game_number']} of {view['match_games']}"
                if view["match_games"] > 1 else "")
        lines = [f"📜 **Your secret contract: No. {contract['number']}** — {table.title} "
                 f"(#{table.id}{game})", *contract_lines(contract), "",
                 "**What each garden would score for you now:**"]
        for garden, points in zip(view["gardens"], view["your_garden_points"] or [], strict=True):
            owner = garden["owner"]
            mark = " ← yours" if owner == seat else (
                f" ({table.names[owner]}'s)" if owner is not None else "")
            lines.append(f"Garden {garden['number']}: **{points}** points{mark}")
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
            notes.append(PrivateNote(
                user_id, partial(self.contract_text, table, seat),
                fallback=partial(self.no_dm_text, user_id)))
        return notes

    @staticmethod
    def no_dm_text(user_id: int) -> str:
        """Said in the thread when a member's contract could not be sent by DM."""
        return (f"<@{user_id}>, I could not DM you: use the **My contract** button under the "
                "board to see your contract.")

    def score_embed(self, table: Table[KrautRubenState], summary: Mapping[str, Any],
                    state: KrautRubenState) -> discord.Embed:
        """One finished game: contracts revealed, each garden's score line by line, winner."""
        names = table.names
        match = state.options["match_games"]
        number = summary["game_number"]
        title = (f"🏁 Game {number} of {match} — scores" if match > 1 else "🏁 Final scores")
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
                lines.append(f"Contract No. {contract['number']}: main {contract['main']}, "
                             f"high {contract['high']}, low {contract['low']}, "
                             f"minus {contract['minus']}")
            for number_ in player["gardens"]:
                score = gardens[number_]["score"]
                if not score:
                    continue
                lines.append(f"**Garden {number_}** — {score['total']} points")
                lines += [f"{ROLE_MARK.get(line['role'], '•')} "
                          f"{TILE_EMOJI.get(line['tile'], '')} {line['text']}"
                          for line in score["lines"]]
            if not player["gardens"]:
                lines.append("No garden: 0 points.")
            if player["cup"]:
                lines.append(f"🏆 The cup (first to take a garden): +{player['cup']}")
            name = f"{self.seat_badge(seat)} {names[seat]} — {player['total']} points"
            embed.add_field(name=name[:256], value="\n".join(lines)[:1024] or "—", inline=False)
        spare = [g["number"] for g in summary["gardens"] if g["owner"] is None]
        notes = []
        if spare:
            notes.append(f"Garden {', '.join(map(str, spare))} had no owner and scores for "
                         "nobody.")
        if match > 1:
            totals = state.match_totals() if state.is_over() else [
                sum(r["players"][s]["total"] for r in state.records[:number])
                for s in range(len(names))]
            notes.append("**Match totals:** " + " · ".join(
                f"{self.seat_badge(s)} {names[s]} {totals[s]}" for s in range(len(names))))
        else:
            result = state.result()
            winner = result.winners[0] if result else leaders[0]
            notes.append(f"**Winner: {self.seat_badge(winner)} {names[winner]}**")
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
