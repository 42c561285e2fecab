"""Where the components' clicks go: the services, after the checks every game shares."""

from __future__ import annotations

from bot.challenges import ChallengeService
from bot.components import (
    MAX_ID,
    ChallengeAnswer,
    GameAction,
    LeaderboardPage,
    LobbyAction,
)
from bot.errors import Refusal
from bot.games.common import require_player, resign_prompt
from bot.records import RecordsService
from bot.replies import Interaction
from bot.sessions import SessionManager


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
            raise Refusal("This game no longer exists.")
        if session.is_over:
            raise Refusal(session.over_text())
        if action.ply is not None and action.ply != session.ply:
            if session.board_behind:  # never send the player back to an outdated board
                await session.mend_board()
            raise Refusal(session.stale_text())
        user = interaction.user.id
        if action.action == "resign":
            require_player(session, user)
            text, view = resign_prompt(session)
            await interaction.response.send_message(text, view=view, ephemeral=True)
        elif action.action == "resign_confirm":
            require_player(session, user)
            await interaction.response.defer()  # answer before writing
            await session.resign(user)
            await interaction.edit_original_response(content="You resigned.", view=None)
        elif action.action == "resign_cancel":
            await interaction.response.edit_message(content="Game on!", view=None)
        else:
            await session.ui.handle(interaction, session, action, values)

    async def challenge_answer(self, interaction: Interaction, answer: ChallengeAnswer) -> None:
        """Accept or Decline."""
        if not plausible(answer.challenge_id):
            raise Refusal("This challenge no longer exists.")
        await self.challenges.answer(interaction, answer.challenge_id, answer.answer)

    async def lobby_action(self, interaction: Interaction, action: LobbyAction) -> None:
        """Join, Leave or Start."""
        if not plausible(action.lobby_id):
            raise Refusal("This table no longer exists.")
        await self.challenges.answer_lobby(interaction, action.lobby_id, action.action)

    async def leaderboard_page(self, interaction: Interaction, page: LeaderboardPage) -> None:
        """Show another page of a leaderboard in place."""
        embed, view = await self.records.leaderboard_page(page, interaction.guild_id)
        await interaction.response.edit_message(embed=embed, view=view)
