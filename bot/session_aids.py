"""Aids for casual games: hints, and taking a move back (`bot.takebacks`)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.ai_players import HINT_LEVEL, hint_seed
from bot.errors import Refusal
from bot.games.base import Turn
from bot.publisher import InteractionPublisher, Publisher, PublishFailed
from bot.session_base import SessionBase
from bot.takebacks import TakebackMode, TakebackOutcome, request_post, takeback_mode
from engines import GAMES
from i18n import _, use_language
from storage import MoveKind, NewMove, standing_moves


class PlayingAids(SessionBase):
    """The Hard AI's hint, and take-backs (at once against the AI, asked between people)."""

    # -- taking a move back (`bot.takebacks`) ----------------------------------------------

    async def take_back(self, user_id: int, *, expected_ply: int | None = None,
                        interaction: discord.Interaction[Any] | None = None
                        ) -> TakebackOutcome:
        """Take the user's last decision back: at once against the AI (its reply with it);
        between two people, post a request the opponent accepts (through the answered
        `interaction`). `expected_ply` binds the click to its board: a double click takes
        one move back, or asks once."""
        async with self.lock:
            seat, mode = self._takeback_seat(user_id, expected_ply)
            if mode is TakebackMode.AT_ONCE:
                await self._take_back_for(seat, user_id)
                return TakebackOutcome.TAKEN_BACK
            standing = standing_moves(await self.db.moves(self.id))
            decisions = [m for m in standing if m.kind is MoveKind.PLAYER]
            if not decisions or decisions[-1].seat != seat:
                raise Refusal(_("You can take your move back only before {name} plays "
                                "theirs.").format(name=escape_markdown(self.names[1 - seat])))
            if self._takeback_asked is not None and self._takeback_asked[0] == self.ply:
                raise Refusal(_("Your request stands: {name} has not answered it yet.")
                              .format(name=escape_markdown(self.names[1 - seat])))
            with use_language(await self.public_language()):
                post = request_post(self, seat, decisions[-1].move)
            via = self.publisher if interaction is None else InteractionPublisher(
                interaction, self.publisher)
            try:
                message = await via.post(self._record.channel_id, post)
            except PublishFailed as failure:  # nothing was stored: the asker may try again
                raise Refusal(_("Discord would not take your request in this thread: nothing "
                                "changed. Try again in a moment; a moderator may need to give "
                                "me back the permission to post here.")) from failure
            self._takeback_asked = (self.ply, seat, message)
            return TakebackOutcome.ASKED

    async def answer_take_back(self, user_id: int, asker: int, accept: bool, *,
                               expected_ply: int | None,
                               interaction: discord.Interaction[Any]) -> TakebackOutcome:
        """Accept or decline a request from its message (its asker withdraws it)."""
        async with self.lock:
            seat = self.takeback_answerer(user_id, asker, accept, expected_ply)
            message = None if interaction.message is None else interaction.message.id
            via = InteractionPublisher(interaction, self.publisher)
            self._takeback_asked = None  # answered: the move below must not lapse it
            if seat == asker:
                outcome = TakebackOutcome.WITHDRAWN
            elif accept:
                await self._take_back_for(asker, self._record.user_at(asker), via)
                outcome = TakebackOutcome.TAKEN_BACK
            else:
                outcome = TakebackOutcome.DECLINED
            if message is not None:
                await self._close_request(message, asker, outcome, via)
            return outcome

    def takeback_answerer(self, user_id: int, asker: int, accept: bool,
                          expected_ply: int | None) -> int:
        """The seat of a player who may give this answer to `asker`'s request; else a
        Refusal (checked before the click is answered, then again under the lock)."""
        seat, mode = self._takeback_seat(user_id, expected_ply)
        if mode is not TakebackMode.BY_ASKING or asker not in (0, 1):
            raise Refusal(_("This request no longer stands."))
        if seat == asker and accept:
            raise Refusal(_("This is your own request: it is {name}'s to accept (Decline "
                            "withdraws it).").format(name=escape_markdown(self.names[1 - asker])))
        return seat

    def takeback_seat(self, user_id: int, expected_ply: int | None) -> int:
        """The seat of a player who may click Take back now; else a Refusal."""
        return self._takeback_seat(user_id, expected_ply)[0]

    def _takeback_seat(self, user_id: int, expected_ply: int | None) -> tuple[int, TakebackMode]:
        """The seat of a player who may take back (or answer) now, and how; else a Refusal."""
        seat = self.player_seat(user_id, expected_ply)
        mode = takeback_mode(self._record, self.ui)
        if mode is None:
            raise Refusal(_("Moves can be taken back only in a casual game of Qawale or "
                            "Granat, against the AI or between two people."))
        return seat, mode

    async def _take_back_for(self, seat: int, user_id: int,
                             via: Publisher | None = None) -> Turn:
        """Return to the position before `seat`'s last decision, its turn again (the lock is
        held); logged, never erased (see `MoveKind.TAKEBACK`); store, announce."""
        standing = standing_moves(await self.db.moves(self.id))
        decisions = [m for m in standing if m.kind is MoveKind.PLAYER and m.seat == seat]
        if not decisions:
            raise Refusal(_("You have no move to take back yet."))
        back_to = decisions[-1].ply - 1
        state = GAMES[self._record.game].new_state(
            len(self._record.seats), options=self._record.options or None)
        for move in standing:
            if move.ply <= back_to and move.kind.changes_the_board:
                state.apply(move.move)
        turn = Turn([NewMove(seat, user_id, MoveKind.TAKEBACK, str(back_to))], state)
        await self._store(turn, None)
        return await self._announce(turn, via)


    async def hint(self, user_id: int) -> str:
        """The move the hint level would play now for `user_id` (a casual game's 💡 Hint):
        from what their seat may see, as for any AI move."""
        self.seat_to_act(user_id)
        if not self._record.casual:
            raise Refusal(_("Hints are for casual games only: a rated game is played "
                            "unaided."))
        if self.thinker is None:
            raise Refusal(_("Hints are not available on this bot: it has no AI."))
        ply = self.ply
        if self._hint is None or self._hint[0] != ply:
            self._hint = (ply, asyncio.ensure_future(self.thinker.choose(
                self._record.game, self._state.dump(), HINT_LEVEL,
                hint_seed(self._record.rng_seed, ply))))
        asked = self._hint
        try:
            move = await asyncio.shield(asked[1])
        except Exception:
            if self._hint is asked:  # a failure is not kept: the next click thinks again
                self._hint = None
            raise
        self.seat_to_act(user_id, expected_ply=ply)  # still theirs: nothing happened meanwhile
        return move
