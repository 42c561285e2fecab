"""Where the components' clicks go: the services, after the checks every game shares."""

from __future__ import annotations

import io

import discord
from discord.utils import escape_markdown

from bot.board import alt_text
from bot.challenges import ChallengeService
from bot.components import (
    MAX_ID,
    ChallengeAnswer,
    ChallengePick,
    GameAction,
    HistoryPage,
    LeaderboardPage,
    LobbyAction,
    ReplayStep,
    ShareRequest,
    TournamentAction,
)
from bot.draw_offers import DrawAction
from bot.errors import Refusal
from bot.games.base import marked_title
from bot.games.common import hint_panel, played_text, require_player, resign_prompt
from bot.guide import games_embed, rules_embed, with_start_picture
from bot.records import RecordsService
from bot.replies import Interaction
from bot.session_manager import SessionManager
from bot.sessions import GameSession
from bot.takebacks import TakebackAction
from i18n import _, use_language
from storage import MoveKind

TIMEOUT_CHOICES = ("claim_win", "let_ai_play", "keep_waiting")
"""What the others may do once the player to move ran out of time (two-player games)."""

DRAW_ACTIONS = frozenset(DrawAction)
"""Offer a draw, accept or decline one (`bot.draw_offers`)."""

HINT_ACTIONS = ("hint", "hint_play")
"""💡 Hint under a casual game's board, and Play it under the hint."""

TAKEBACK_ACTIONS = frozenset(TakebackAction)
"""Take back, and the answers to a request (`bot.takebacks`)."""


def plausible(record_id: int) -> bool:
    """True for an id the database could hold (a forged custom_id may name any number)."""
    return 0 < record_id <= MAX_ID


class Router:
    """The bot's `ComponentRouter`: decoded clicks in, service calls out."""

    def __init__(self, sessions: SessionManager, challenges: ChallengeService,
                 records: RecordsService) -> None:
        self.sessions = sessions
        self.challenges = challenges
        self.records = records

    async def game_action(
        self, interaction: Interaction, action: GameAction, values: list[str]
    ) -> None:
        """Check the game and the board version, then resign or hand over to the game."""
        session = await self.sessions.get(action.game_id) if plausible(action.game_id) else None
        if session is None:
            raise Refusal(_("This game no longer exists."))
        if action.ply is not None:
            await session.catch_up(action.ply)
        if action.action == "rematch":
            await self.challenges.rematch(interaction, action.game_id)
            return
        if action.action in TIMEOUT_CHOICES:
            await self._timeout_choice(interaction, session, action)
            return
        if action.action == "rules":  # for players and spectators, even once the game is over
            await interaction.response.send_message(embed=rules_embed(session.record.game),
                                                    ephemeral=True)
            return
        if action.action == "cancel":
            # A panel's Cancel only closes it: it must work on a panel gone out of date, or
            # once the game is over, where every other control is refused and would leave the
            # panel up for good.
            await session.ui.handle(interaction, session, action, values)
            return
        if session.is_over:
            raise Refusal(session.over_text())
        if action.ply is not None and action.ply != session.ply:
            if session.board_behind:  # never send the player back to an outdated board
                await session.mend_board()
            raise Refusal(session.stale_text())
        user = interaction.user.id
        if action.action in DRAW_ACTIONS:
            draw = DrawAction(action.action)
            session.draw_seat(user, draw)  # refuse before answering
            await interaction.response.defer()  # answer before writing
            if draw is DrawAction.OFFER:
                await session.offer_draw(user, interaction)
            else:
                await session.answer_draw(user, draw is DrawAction.ACCEPT, interaction)
        elif action.action == "resign":
            require_player(session, user)
            text, view = resign_prompt(session)
            await interaction.response.send_message(text, view=view, ephemeral=True)
        elif action.action == "resign_confirm":
            require_player(session, user)
            await interaction.response.defer()  # answer before writing
            turn = await session.resign(user)
            left = any(move.kind is MoveKind.LEAVE for move in turn.moves)
            text = _("You left: 🤖 the AI plays your seat.") if left else _("You resigned.")
            await interaction.edit_original_response(content=text, view=None)
        elif action.action in HINT_ACTIONS:
            await self._hint(interaction, session, action)
        elif action.action in TAKEBACK_ACTIONS:
            await self._take_back(interaction, session, action)
        elif action.action == "resign_cancel":
            await interaction.response.edit_message(content=_("Game on!"), view=None)
        else:
            await session.ui.handle(interaction, session, action, values)

    @staticmethod
    async def _hint(interaction: Interaction, session: GameSession, action: GameAction) -> None:
        """💡 Hint: the AI's move privately; Play it: play that move."""
        user = interaction.user.id
        if action.action == "hint":
            session.seat_to_act(user)  # refuse before answering
            await interaction.response.defer(ephemeral=True, thinking=True)  # it thinks ~1 s
            content, view, picture = await hint_panel(session, await session.hint(user))
            await interaction.followup.send(content, view=view, file=picture, ephemeral=True)
            return
        session.seat_to_act(user, expected_ply=action.ply)  # refuse before answering
        await interaction.response.defer()
        turn = await session.play(user, await session.hint(user), expected_ply=action.ply,
                                  interaction=interaction)
        await interaction.edit_original_response(content=played_text(turn), attachments=[],
                                                 embed=None, view=None)

    @staticmethod
    async def _take_back(interaction: Interaction, session: GameSession,
                         action: GameAction) -> None:
        """↩️ Take back under the board; Accept or Decline under a request."""
        user = interaction.user.id
        if action.action == TakebackAction.ASK:
            session.takeback_seat(user, action.ply)  # refuse before answering
            await interaction.response.defer()  # answer before writing: the board follows
            await session.take_back(user, expected_ply=action.ply, interaction=interaction)
            return
        asker = int(action.arg) if action.arg in ("0", "1") else -1
        accept = action.action == TakebackAction.ACCEPT
        session.takeback_answerer(user, asker, accept, action.ply)  # refuse first
        await interaction.response.defer()  # answer before writing
        await session.answer_take_back(user, asker, accept, expected_ply=action.ply,
                                       interaction=interaction)

    @staticmethod
    async def _timeout_choice(
        interaction: Interaction, session: GameSession, action: GameAction
    ) -> None:
        """Claim the win, let the AI play, or keep waiting, once the player to move ran out."""
        ply = -1 if action.ply is None else action.ply
        user = interaction.user.id
        absent = session.check_timed_out(user, ply)  # refuse before answering
        await interaction.response.defer()  # answer before writing
        deadline = None
        if action.action == "claim_win":
            await session.claim_win(user, ply)
        elif action.action == "let_ai_play":
            await session.let_ai_play(user, ply)
        else:
            deadline = await session.keep_waiting(user, ply)
        # The choice message is public: it says what was chosen in the server's language.
        with use_language(await session.public_language()):
            name, who = escape_markdown(session.names[absent]), interaction.user.mention
            if action.action == "claim_win":
                outcome = _("{who} claimed the win.").format(who=who)
            elif action.action == "let_ai_play":
                outcome = _("{who} let 🤖 the AI play for {name}: the game counts for no "
                            "rating.").format(who=who, name=name)
            elif deadline is not None:
                outcome = _("{who} keeps waiting: {name} has time until {when}.").format(
                    who=who, name=name, when=discord.utils.format_dt(deadline, "R"))
            else:
                outcome = _("{who} keeps waiting: {name} has time.").format(who=who, name=name)
            content = _("⏰ **{name}** ran out of time in **{title}**. {outcome}").format(
                name=name, title=marked_title(session), outcome=outcome)
        await interaction.edit_original_response(content=content, view=None)

    async def challenge_answer(self, interaction: Interaction, answer: ChallengeAnswer) -> None:
        """Accept or Decline."""
        if not plausible(answer.challenge_id):
            raise Refusal(_("This challenge no longer exists."))
        await self.challenges.answer(interaction, answer.challenge_id, answer.answer)

    async def challenge_pick(self, interaction: Interaction, pick: ChallengePick,
                             game: str) -> None:
        """Post the challenge of the game picked under the member menu's Challenge to a game."""
        guild = interaction.guild
        member = None
        if guild is not None and plausible(pick.opponent_id):
            member = guild.get_member(pick.opponent_id)
            if member is None:  # not cached (no members intent): ask Discord
                try:
                    member = await guild.fetch_member(pick.opponent_id)
                except discord.NotFound:
                    member = None
        if member is None:
            raise Refusal(_("That member is no longer on this server."))
        await self.challenges.open(interaction, game, member)

    async def lobby_action(self, interaction: Interaction, action: LobbyAction) -> None:
        """Join, Leave or Start."""
        if not plausible(action.lobby_id):
            raise Refusal(_("This table no longer exists."))
        await self.challenges.answer_lobby(interaction, action.lobby_id, action.action)

    async def tournament_action(self, interaction: Interaction,
                                action: TournamentAction) -> None:
        """Withdraw from a tournament, or cancel it: a private confirmation first."""
        if not plausible(action.tournament_id):
            raise Refusal(_("This tournament no longer exists."))
        tournaments = self.challenges.tournaments
        if action.action == "withdraw":
            await tournaments.ask_to_withdraw(interaction, action.tournament_id)
        elif action.action == "confirm":
            await tournaments.withdraw(interaction, action.tournament_id)
        elif action.action == "cancel":
            await tournaments.ask_to_cancel(interaction, action.tournament_id)
        else:
            await tournaments.cancel(interaction, action.tournament_id)

    async def leaderboard_page(self, interaction: Interaction, page: LeaderboardPage) -> None:
        """Show another page of a (public) leaderboard in place, in the server's language."""
        with use_language(await self.challenges.server_language(interaction.guild_id)):
            embed, view = await self.records.leaderboard_page(page, interaction.guild_id)
        await interaction.response.edit_message(embed=embed, view=view)

    async def history_page(self, interaction: Interaction, page: HistoryPage) -> None:
        """Show another page of a (public) history in place, in the server's language."""
        if not plausible(page.member_id):
            raise Refusal(_("There is no such member on this server."))
        with use_language(await self.challenges.server_language(interaction.guild_id)):
            embed, view = await self.records.history(page.member_id, None,
                                                     interaction.guild_id, page.page,
                                                     page.game)
        await interaction.response.edit_message(embed=embed, view=view)

    async def replay_step(self, interaction: Interaction, step: ReplayStep) -> None:
        """Step through: open a private viewer; First, Previous, Next, Last: edit it in place;
        Move list: the moves as a private text file."""
        if not plausible(step.game_id):
            raise Refusal(_("There is no such game on this server."))
        if step.direction == "m":
            content, text = await self.records.move_list(step.game_id, interaction.guild_id)
            await interaction.response.send_message(content, ephemeral=True, file=discord.File(
                io.BytesIO(text), filename=f"game-{step.game_id}.txt"))
            return
        found = await self.records.replay_position(step, interaction.guild_id)  # refuse first
        opening = step.direction == "o"
        if opening:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()  # answer first: drawing may take a moment
        frame = await self.records.replay_frame(*found)
        picture = discord.File(io.BytesIO(frame.png), filename=frame.filename,
                               description=alt_text(frame.content))
        if opening:
            await interaction.followup.send(frame.content, file=picture, view=frame.view,
                                            ephemeral=True)
        else:
            await interaction.edit_original_response(content=frame.content,
                                                     attachments=[picture], view=frame.view)

    async def share(self, interaction: Interaction, request: ShareRequest) -> None:
        """Post the list of games, or a game's rules with its starting position, in the
        channel (in the server's language); the private copy says so (in the clicker's)."""
        language = await self.challenges.server_language(interaction.guild_id)
        with use_language(language):
            embed = games_embed() if request.what == "games" else rules_embed(request.game)
        await interaction.response.edit_message(content=_("📣 Shared in the channel."), view=None)
        quiet = discord.AllowedMentions.none()
        if request.what == "games":
            await interaction.followup.send(embed=embed, allowed_mentions=quiet)
        else:
            with use_language(language):  # drawn after answering: the painter may be busy
                picture = await with_start_picture(embed, request.game, self.sessions.painter)
            await interaction.followup.send(embed=embed, file=picture, allowed_mentions=quiet)
