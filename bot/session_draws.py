"""Draw offers between the two people of a game (`bot.draw_offers` holds the texts)."""

from __future__ import annotations

from typing import Any

import discord
from discord.utils import escape_markdown

from bot.draw_offers import DrawAction, DrawOutcome, draws_possible, offer_post
from bot.errors import GameOver, NotAPlayer, Refusal, StaleBoard
from bot.games.base import Turn
from bot.publisher import InteractionPublisher, Publisher, PublishFailed
from bot.session_base import SessionBase, log
from engines import EndReason, Result
from i18n import _, use_language
from storage import MoveKind, NewMove


class DrawOffers(SessionBase):
    """Offer, accept, decline or withdraw a draw, under the game's lock."""

    # -- draw offers (`bot.draw_offers`) ---------------------------------------------------

    def draw_seat(self, user_id: int, action: DrawAction) -> int:
        """The seat of a player who may take this draw action now; otherwise a Refusal."""
        if self.is_over:
            raise GameOver(self.over_text())
        seat = self._record.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(self.not_playing_text())
        if not draws_possible(self._record):
            raise Refusal(_("A draw is agreed only between two people: resign or play on."))
        offer, other = self._record.draw_offer, escape_markdown(self.names[1 - seat])
        if action is DrawAction.OFFER:
            if offer == seat:
                raise Refusal(_("Your draw offer stands: {name} has not answered it yet.")
                              .format(name=other))
            if self._draw_declined.get(seat) == self.ply:
                raise Refusal(_("{name} declined your draw offer: you may offer again once a "
                                "move has been played.").format(name=other))
        elif offer is None:
            raise Refusal(_("This draw offer no longer stands: it was answered or withdrawn, "
                            "or a move was played since."))
        elif action is DrawAction.ACCEPT and offer == seat:
            raise Refusal(_("This is your own offer: it is {name}'s to accept (Decline "
                            "withdraws it).").format(name=other))
        return seat

    async def offer_draw(self, user_id: int,
                         interaction: discord.Interaction[Any]) -> DrawOutcome:
        """Offer the other player a draw, posted in the thread through the (answered)
        `interaction`; when their own offer stands, that agrees the draw."""
        async with self.lock:
            seat = self.draw_seat(user_id, DrawAction.OFFER)
            via = InteractionPublisher(interaction, self.publisher)
            if self._record.draw_offer == 1 - seat:
                return await self._agree_draw(seat, user_id, via)
            await self._set_draw_offer(seat)
            with use_language(await self.public_language()):
                post = offer_post(self, seat)
            try:
                self._draw_message = await via.post(self._record.channel_id, post)
            except PublishFailed:  # it stands all the same: the board's button agrees it
                log.warning("game %s: could not post a draw offer", self.id, exc_info=True)
                try:
                    await interaction.followup.send(_(
                        "Your draw offer stands, but Discord would not show it in the thread: "
                        "{name} can still agree with the board's Offer draw button or "
                        "`/draw`.").format(name=escape_markdown(self.names[1 - seat])),
                        ephemeral=True)
                except discord.HTTPException:
                    log.info("game %s: could not tell the offerer either", self.id)
            return DrawOutcome.OFFERED

    async def answer_draw(self, user_id: int, accept: bool,
                          interaction: discord.Interaction[Any]) -> DrawOutcome:
        """Accept or decline the standing offer from its message (its maker withdraws it)."""
        async with self.lock:
            seat = self.draw_seat(user_id, DrawAction.ACCEPT if accept else DrawAction.DECLINE)
            if interaction.message is not None:
                self._draw_message = interaction.message.id
            offerer = seat if self._record.draw_offer == seat else 1 - seat
            via = InteractionPublisher(interaction, self.publisher)
            if accept:
                return await self._agree_draw(seat, user_id, via)
            await self._set_draw_offer(None)
            outcome = DrawOutcome.WITHDRAWN if offerer == seat else DrawOutcome.DECLINED
            if outcome is DrawOutcome.DECLINED:
                self._draw_declined[offerer] = self.ply
            await self._close_offer(offerer, outcome, via)
            return outcome

    async def _set_draw_offer(self, seat: int | None) -> None:
        """Store the standing offer (the lock is held)."""
        if not await self.db.set_draw_offer(self.id, self.ply, seat):
            await self._reload()  # another process wrote this game
            raise StaleBoard(self.stale_text())
        self._record.draw_offer = seat

    async def _agree_draw(self, seat: int, user_id: int, via: Publisher) -> DrawOutcome:
        """`seat` accepts the other's offer: the game ends drawn (the lock is held)."""
        turn = Turn([NewMove(seat, user_id, MoveKind.DRAW, "draw")], self._state)
        await self._store(turn, Result([0, 1], None, EndReason.AGREED))
        await self._close_offer(1 - seat, DrawOutcome.AGREED, via)
        await self._announce(turn, via)
        return DrawOutcome.AGREED
