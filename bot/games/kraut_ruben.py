"""Kraut & Rüben in Discord: Draw or Mole buttons, bed menus, Take/End, private contracts.

The board shows only the spectator's view; each player's contract reaches them privately:
by direct message when contracts are dealt, and at any time through the **My contract**
button under every board (so a player with closed DMs is never stuck).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.components import GameButton, GameSelect
from bot.errors import NotAPlayer, Refusal
from bot.games.base import AUTOCOMPLETE_LIMIT, GameUI
from bot.games.common import close_panel, play_from_panel
from engines import Result
from engines.kraut_ruben import (
    FIXED_POINTS,
    KrautRubenState,
    Phase,
    PlayMole,
    Take,
    parse_bed,
    parse_notation,
)
from storage import MoveKind, NewMove

if TYPE_CHECKING:
    from bot.sessions import GameSession, Turn

log = logging.getLogger(__name__)

TILE_EMOJI = {
    "tomato": "🍅", "asparagus": "🌿", "carrot": "🥕", "lettuce": "🥬", "clover": "🍀",
    "dandelion": "🌼", "snail": "🐌", "mole": "🕳️",
}
"""One emoji per tile in texts (the picture draws each tile with its own icon and letter)."""

ROLE_MARK = {"main": "🎯", "high": "⬆️", "low": "↗️", "minus": "⬇️", "fixed": "•"}
SELECT_LIMIT = 25
"""Discord's limit of options in one select menu."""


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


class KrautRubenUI(GameUI):
    """Board: Draw / Mole, then a bed menu, then Take or End; My contract answers privately."""

    game_id = "kraut_ruben"

    @staticmethod
    def _state(session: GameSession) -> KrautRubenState:
        return session.state  # type: ignore[return-value]

    def _who(self, session: GameSession, seat: int) -> str:
        return f"{self.seat_badge(seat)} **{session.names[seat]}**"

    # -- texts ---------------------------------------------------------------------------

    def status(self, session: GameSession) -> str:
        state = self._state(session)
        parts = []
        if state.options["match_games"] > 1:
            parts.append(f"game {state.game_number} of {state.options['match_games']}")
        parts.append(f"bag: {state.bag_count} tiles")
        if state.drawn_tile is not None:
            parts.append(f"drawn: {state.drawn_tile}")
        return " · ".join(parts)

    def result_text(self, session: GameSession, result: Result) -> str:
        if result.reason == "resigned" or not result.scores:
            return super().result_text(session, result)
        names = session.names
        scores = result.scores
        others = " · ".join(f"{names[s]} {scores[s]:g}" for s in range(len(names))
                            if s not in result.winners)
        winners = " and ".join(names[s] for s in result.winners)
        best = scores[result.winners[0]]
        if result.reason == "match_total":
            verb = "share the match" if len(result.winners) > 1 else "wins the match"
            return f"🏆 {winners} {verb} with {best:g} points over three games ({others})."
        tied = [s for s in range(len(names)) if scores[s] == best]
        tie = " — tie broken: took a garden first" if len(tied) > 1 else ""
        return f"🏆 {winners} wins with {best:g} points ({others}){tie}."

    def describe(self, session: GameSession, move: NewMove) -> str:
        return self._line(session, move, None) or ""

    def summarize(self, session: GameSession, moves: Sequence[NewMove]) -> list[str]:
        state = self._state(session)
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
            line = self._line(session, move, drawn)
            if line:
                lines.append(line)
        return lines

    def _line(self, session: GameSession, move: NewMove, drawn: str | None) -> str | None:
        """One log line for a player's (or forced) move; None for a hidden chance event."""
        if move.seat is None:
            if move.move.startswith("contract:"):
                return None
            return f"🎲 {tile_words(move.move.split(':', 1)[1])} comes out of the bag."
        who = self._who(session, move.seat)
        if move.kind is MoveKind.RESIGN:
            return f"{who} resigned."
        forced = move.kind is MoveKind.FORCED
        state = self._state(session)
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
        garden, bed = parsed.garden, parsed.bed  # type: ignore[attr-defined]
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

    def board_items(self, session: GameSession) -> list[discord.ui.Item]:
        state = self._state(session)
        sid, ply = session.id, session.ply
        items: list[discord.ui.Item] = []
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
            places = [str(p) for p in state.placements()]
            tile = str(state.drawn_tile)
            if len(places) <= SELECT_LIMIT:
                items.append(self._bed_select(session, "place", places,
                                              f"Where does the {tile} go?"))
            else:
                items.append(self._garden_select(session, "garden", state.placement_gardens(),
                                                 f"Choose a garden for the {tile}…"))
        items.append(GameButton(sid, None, "contract", label="My contract", emoji="📜",
                                style=discord.ButtonStyle.secondary, row=4))
        return items

    def _garden_label(self, session: GameSession, garden: int) -> tuple[str, str]:
        state = self._state(session)
        owner = state.owners[garden - 1]
        whose = f"{session.names[owner]}'s garden" if owner is not None else "no owner yet"
        empty = len(state.empty_beds(garden))
        return f"Garden {garden}", f"{whose} · {empty} empty bed{'s' * (empty != 1)}"

    def _garden_select(self, session: GameSession, action: str, gardens: Sequence[int],
                       placeholder: str) -> GameSelect:
        options = []
        for garden in gardens:
            label, description = self._garden_label(session, garden)
            options.append(discord.SelectOption(label=label, value=str(garden),
                                                description=description[:100]))
        return GameSelect(session.id, session.ply, action, options=options,
                          placeholder=placeholder, row=0)

    def _bed_select(self, session: GameSession, action: str, moves: Sequence[str],
                    placeholder: str) -> GameSelect:
        """One option per move (`3B2` or `mole 3B2`), saying what lies there now."""
        state = self._state(session)
        options = []
        for text in moves:
            parsed = parse_notation(text)
            garden, bed = parsed.garden, parsed.bed  # type: ignore[attr-defined]
            top = state.top(garden, bed)
            here = f"covers {tile_words(str(top))}" if top else "empty bed"
            owner = state.owners[garden - 1]
            whose = f" · {session.names[owner]}'s garden" if owner is not None else ""
            options.append(discord.SelectOption(
                label=f"Garden {garden} · bed {bed}", value=text,
                description=f"{here}{whose}"[:100]))
        return GameSelect(session.id, session.ply, action, options=options,
                          placeholder=placeholder, row=0)

    # -- components ------------------------------------------------------------------------

    async def handle(
        self, interaction: discord.Interaction, session: GameSession, action: str, arg: str,
        values: list[str],
    ) -> None:
        user = interaction.user.id
        if action == "contract":
            await self._show_contract(interaction, session)
        elif action in ("draw", "end", "take", "place"):
            move = {"draw": "draw", "end": "end", "take": f"take {arg}"}.get(action)
            move = move or values[0]
            session.seat_to_act(user, expected_ply=session.ply)  # refuse before deferring
            await interaction.response.defer()
            await session.play(user, move, expected_ply=session.ply)
        elif action in ("garden", "mole", "molegarden"):
            session.seat_to_act(user, expected_ply=session.ply)
            content, view = self._composer(session, action, values)
            if action == "molegarden":
                await interaction.response.edit_message(content=content, view=view)
            else:
                await interaction.response.send_message(content, view=view, ephemeral=True)
        elif action in ("placebed", "molebed"):
            await play_from_panel(interaction, session, values[0])
        elif action == "cancel":
            await close_panel(interaction, "Cancelled: use the board's controls to choose again.")
        else:
            raise Refusal(f"Unknown Kraut & Rüben action {action!r}.")

    def _composer(self, session: GameSession, action: str,
                  values: list[str]) -> tuple[str, discord.ui.View]:
        """The private second step: beds of the chosen garden, or where the mole may dig."""
        state = self._state(session)
        view = discord.ui.View(timeout=None)
        if action == "garden":
            garden = int(values[0])
            moves = [f"{garden}{bed}" for bed in state.placement_beds(garden)]
            tile = str(state.drawn_tile)
            content = (f"{tile_words(tile, 'Your')}: choose a bed in **garden {garden}** "
                       f"({len(moves)} possible).")
            view.add_item(self._bed_select(session, "placebed", moves, "Choose a bed…"))
        else:
            targets = [str(m) for m in state.mole_targets()]
            if action == "molegarden":
                garden = int(values[0])
                targets = [t for t in targets if parse_notation(t).garden == garden]  # type: ignore[attr-defined]
            if len(targets) <= SELECT_LIMIT:
                content = (f"{TILE_EMOJI['mole']} Your mole covers a tile for good (once per "
                           "game): choose which.")
                view.add_item(self._bed_select(session, "molebed", targets, "Cover which tile?"))
            else:
                content = f"{TILE_EMOJI['mole']} Your mole: first choose a garden."
                view.add_item(self._garden_select(session, "molegarden", state.mole_gardens(),
                                                  "Choose a garden…"))
        view.add_item(GameButton(session.id, session.ply, "cancel", label="Cancel", emoji="✖️",
                                 style=discord.ButtonStyle.secondary, row=1))
        return content, view

    async def _show_contract(self, interaction: discord.Interaction,
                             session: GameSession) -> None:
        seat = session.record.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer(f"You are not playing in {session.title}: contracts are secret "
                             "until the end of the game.")
        await interaction.response.send_message(self.contract_text(session, seat),
                                                ephemeral=True)

    def contract_text(self, session: GameSession, seat: int) -> str:
        """A seat's contract and what each garden would score with it now (from its view)."""
        view = self._state(session).view(seat)
        contract = view["your_contract"]
        if contract is None:
            return "Your contract has not been dealt yet."
        game = (f", game {view['game_number']} of {view['match_games']}"
                if view["match_games"] > 1 else "")
        lines = [f"📜 **Your secret contract: No. {contract['number']}** — {session.title} "
                 f"(#{session.id}{game})", *contract_lines(contract), "",
                 "**What each garden would score for you now:**"]
        for garden, points in zip(view["gardens"], view["your_garden_points"], strict=True):
            owner = garden["owner"]
            mark = " ← yours" if owner == seat else (
                f" ({session.names[owner]}'s)" if owner is not None else "")
            lines.append(f"Garden {garden['number']}: **{points}** points{mark}")
        return "\n".join(lines)

    # -- after the board --------------------------------------------------------------------

    async def after_announce(self, session: GameSession, turn: Turn) -> None:
        state: KrautRubenState = turn.state  # type: ignore[assignment]
        dealt = any(m.kind is MoveKind.CHANCE and m.move.startswith("contract:")
                    for m in turn.moves)
        resigned = any(m.kind is MoveKind.RESIGN for m in turn.moves)
        ended: list[dict[str, Any]] = []
        if dealt and state.game_number > 1:
            ended.append(state.records[state.game_number - 2])
        if state.is_over() and not resigned and state.records:
            ended.append(state.records[-1])
        channel = await session.channel()
        for summary in ended:
            await channel.send(embed=self.score_embed(session, summary, state))
        if dealt:
            await self.send_contracts(session, channel)

    async def send_contracts(self, session: GameSession,
                             channel: discord.abc.Messageable) -> None:
        """DM each player their contract; say so in the thread when a DM cannot be sent."""
        for seat in range(len(session.names)):
            user_id = session.record.user_at(seat)
            try:
                user = await session.bot.fetch_user(user_id)
                await user.send(self.contract_text(session, seat))
            except discord.HTTPException:
                log.info("game %s: could not DM the contract to %s", session.id, user_id)
                await channel.send(
                    f"<@{user_id}>, I could not DM you: use the **My contract** button under "
                    "the board to see your contract.",
                    allowed_mentions=discord.AllowedMentions(users=True))

    def score_embed(self, session: GameSession, summary: Mapping[str, Any],
                    state: KrautRubenState) -> discord.Embed:
        """One finished game: contracts revealed, each garden's score line by line, winner."""
        names = session.names
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

    def autocomplete(self, session: GameSession, typed: str) -> list[str]:
        state = self._state(session)
        player = state.current_player
        if player is None or player < 0:
            return []
        wanted = "".join(typed.split()).lower()
        texts = [str(m) for m in state.legal_moves()]
        return [t for t in texts
                if "".join(t.split()).lower().startswith(wanted)][:AUTOCOMPLETE_LIMIT]
