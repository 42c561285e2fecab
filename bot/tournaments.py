"""Tournaments (round robins up to 8 players, Swiss beyond: `bot.tournament_rounds`): each
round's games opened in their own threads, the next round once the last game of one ends,
the standings kept on the tournament's message.

A tournament is driven by its games: every game that ends makes the service look at its
tournament again (`advance`), and so does every start of the bot. Looking again is
idempotent (each round's missing games are opened, a finished round moves on once, under
a guarded write), so a crash at any point only delays what the next look does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import defaultdict
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Final

import discord
from discord.utils import escape_markdown

from bot.board import game_title
from bot.clock import utcnow
from bot.components import TournamentButton
from bot.errors import Refusal
from bot.languages import Languages
from bot.publisher import Post, Problem, Publisher, PublishFailed
from bot.ratings import server_scope
from bot.replies import Interaction
from bot.round_robin import MAX_PLAYERS
from bot.session_manager import SessionManager
from bot.tournament_posts import (
    end_call,
    game_intro,
    player_name,
    plays_at_once,
    round_call,
    start_call,
    tournament_embed,
    tournament_view,
)
from bot.tournament_rounds import history, is_swiss, rounds_of, table_of
from engines import GAMES
from i18n import _, use_language
from storage import (
    ChallengeRecord,
    Database,
    GameRecord,
    GameStatus,
    Seat,
    TournamentGame,
    TournamentRecord,
    TournamentStatus,
)

log = logging.getLogger(__name__)

UNRATED: Final = 0.0
"""The seeding rating of a player new to the game on the server (a displayed rating starts
near it)."""

RETRY_SECONDS: Final = 300.0
"""After Discord refused a round's thread, the next try (each later game's end tries too)."""


class TournamentService:
    """Starts tournaments from their tables and carries them from round to round."""

    def __init__(self, db: Database, sessions: SessionManager, publisher: Publisher,
                 languages: Languages) -> None:
        self.db = db
        self.sessions = sessions
        self.publisher = publisher
        self.languages = languages
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task[None]] = set()
        self._refused: set[tuple[int, int]] = set()
        """(Tournament, round) whose thread Discord refused, said once in the channel."""
        self._retries: dict[int, asyncio.Task[None]] = {}

    def _spawn(self, work: Callable[[], Coroutine[Any, Any, None]], name: str) -> None:
        task = asyncio.create_task(work(), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def game_ended(self, record: GameRecord) -> None:
        """A game ended (finished or aborted): if it is a tournament's, look at it again."""
        self._spawn(lambda: self._after_game(record.id), f"tournament-after-{record.id}")

    async def _after_game(self, game_id: int) -> None:
        try:
            tournament_id = await self.db.tournament_of_game(game_id)
            if tournament_id is not None:
                await self.advance(tournament_id)
        except Exception:  # a background task: log it, the next start looks again
            log.exception("game %s: could not carry its tournament on", game_id)

    async def start(self, table: ChallengeRecord, interaction: Interaction | None = None) -> None:
        """Start the tournament of a full enough table (its lock held by the caller): draw
        the places, store the tournament and open round 1. `interaction` is the host's
        Start click; without one, the table started by itself at its time (`starts_in:`)."""
        if interaction is not None:
            await interaction.response.defer()
        order = list(table.player_ids)
        random.SystemRandom().shuffle(order)  # the draw fixes every pairing
        if len(order) > MAX_PLAYERS:  # a Swiss field is seeded: the best rated first
            ratings = await self.db.ratings_of(table.game, server_scope(table.guild_id), order)
            order.sort(key=lambda uid: -ratings.get(uid, UNRATED))  # ties stay as drawn
        tournament = await self.db.start_tournament(
            table_id=table.id, game=table.game, guild_id=table.guild_id,
            channel_id=table.channel_id, message_id=table.message_id,
            host_id=table.challenger_id, players=[(uid, table.name_of(uid)) for uid in order],
            options=table.options, clock=table.clock, casual=table.casual, now=utcnow(),
            legs=table.legs)
        if tournament is None:
            if interaction is None:
                return  # started meanwhile (by its host, or another process)
            raise Refusal(_("This tournament has already started."))
        with use_language(await self.languages.of_server(tournament.guild_id)):
            embed = tournament_embed(tournament, [])
            view = tournament_view(tournament)
        if interaction is not None:
            await interaction.edit_original_response(content=None, embed=embed, view=view)
        elif table.message_id is not None:
            try:
                await self.publisher.edit(table.channel_id, table.message_id,
                                          Post(embed=embed, view=view))
            except PublishFailed:  # its round calls link the standings all the same
                log.info("tournament %s: could not show its start", tournament.id)
        await self.advance(tournament.id)

    async def _running(self, tournament_id: int) -> TournamentRecord:
        """The tournament, if it is still being played; a Refusal saying why not."""
        tournament = await self.db.get_tournament(tournament_id)
        if tournament is None:
            raise Refusal(_("This tournament no longer exists."))
        if tournament.status is not TournamentStatus.RUNNING:
            raise Refusal(_("This tournament is over."))
        return tournament

    async def _player_tournament(self, interaction: Interaction,
                                 tournament_id: int) -> TournamentRecord:
        """The running tournament, if the clicker plays in it and has not withdrawn."""
        tournament = await self._running(tournament_id)
        me = next((p for p in tournament.players if p.user_id == interaction.user.id), None)
        if me is None:
            raise Refusal(_("Only the players of this tournament can withdraw from it."))
        if me.withdrawn_in is not None:
            raise Refusal(_("You already withdrew from this tournament."))
        return tournament

    async def ask_to_withdraw(self, interaction: Interaction, tournament_id: int) -> None:
        """Withdraw clicked: say privately what it does, with a button to confirm."""
        tournament = await self._player_tournament(interaction, tournament_id)
        view = discord.ui.View(timeout=None)
        view.add_item(TournamentButton(tournament.id, "confirm", label=_("Withdraw"),
                                       emoji="🏳️", style=discord.ButtonStyle.danger))
        if plays_at_once(tournament):
            question = _("Withdraw from the {game} tournament? Your games in progress are "
                         "resigned; the others play on. It cannot be undone.")
        elif is_swiss(tournament):
            question = _("Withdraw from the {game} tournament? Your game in progress is "
                         "resigned and you are not paired again; the others play on. It cannot "
                         "be undone.")
        else:
            question = _("Withdraw from the {game} tournament? Your game in progress is "
                         "resigned and your games of the next rounds are lost by forfeit; the "
                         "others play on. It cannot be undone.")
        await interaction.response.send_message(
            question.format(game=GAMES[tournament.game].name), view=view, ephemeral=True)

    async def withdraw(self, interaction: Interaction, tournament_id: int) -> None:
        """Confirmed: withdraw the player, resign their game in progress, carry on."""
        tournament = await self._player_tournament(interaction, tournament_id)
        user = interaction.user.id
        await interaction.response.edit_message(
            content=_("🏳️ You withdrew from the {game} tournament.").format(
                game=GAMES[tournament.game].name), view=None)
        async with self._locks[tournament_id]:
            if await self.db.withdraw_from_tournament(tournament_id, user) is None:
                return  # (a double click: the first one withdrew)
        for game in await self.db.tournament_games(tournament_id):
            if game.status is GameStatus.RUNNING and user in game.player_ids:
                await self._resign_for(game.game_id, user)
        with use_language(await self.languages.of_server(tournament.guild_id)):
            text = (_("🏳️ {name} withdrew from the {game} tournament: they are not paired "
                      "again.") if is_swiss(tournament) else
                    _("🏳️ {name} withdrew from the {game} tournament: their next games are "
                      "lost by forfeit.")).format(name=player_name(tournament, user),
                                                  game=GAMES[tournament.game].name)
        await self._say(tournament, Post(text), "a withdrawal")
        await self.advance(tournament_id)

    async def _resign_for(self, game_id: int, user: int) -> None:
        """Resign a withdrawing player's game in progress, unless the AI already plays
        their seat: its opponent chose to play on against the AI ("Let the AI play")
        rather than claim the win, and the player had already left it, so it plays on."""
        session = await self.sessions.get(game_id)
        if session is None:
            return
        seat = session.record.seat_of(user)
        if seat is not None and session.is_ai_seat(seat):
            return
        # A Refusal here means the game ended, or the AI took the seat, since the look
        # above: nothing left to resign, and the player's other games must still be.
        with contextlib.suppress(Refusal):
            await session.resign(user)  # its end carries the tournament on

    async def _cancellable(self, interaction: Interaction,
                           tournament_id: int) -> TournamentRecord:
        """The running tournament, if the clicker hosts it or moderates the channel."""
        tournament = await self._running(tournament_id)
        perms = interaction.permissions
        if interaction.user.id != tournament.host_id and not (
                perms.manage_messages or perms.manage_threads):
            raise Refusal(_("Only {host}, who opened this tournament, or a moderator (Manage "
                            "Messages or Manage Threads) can cancel it.").format(
                                host=player_name(tournament, tournament.host_id)))
        return tournament

    async def ask_to_cancel(self, interaction: Interaction, tournament_id: int) -> None:
        """Cancel tournament clicked: say privately what it does, with a button to confirm."""
        tournament = await self._cancellable(interaction, tournament_id)
        view = discord.ui.View(timeout=None)
        view.add_item(TournamentButton(tournament.id, "cancel_confirm",
                                       label=_("Cancel tournament"), emoji="🛑",
                                       style=discord.ButtonStyle.danger))
        await interaction.response.send_message(
            _("Cancel the {game} tournament? No further game opens; its games in progress "
              "go on as ordinary games. It cannot be undone.").format(
                  game=GAMES[tournament.game].name), view=view, ephemeral=True)

    async def cancel(self, interaction: Interaction, tournament_id: int) -> None:
        """Confirmed: cancel the tournament, say so in the channel and on its message."""
        tournament = await self._cancellable(interaction, tournament_id)
        async with self._locks[tournament_id]:
            if not await self.db.cancel_tournament(tournament_id, utcnow()):
                raise Refusal(_("This tournament is over."))
        await interaction.response.edit_message(
            content=_("🛑 You cancelled the {game} tournament.").format(
                game=GAMES[tournament.game].name), view=None)
        tournament.status = TournamentStatus.CANCELLED
        with use_language(await self.languages.of_server(tournament.guild_id)):
            text = (_("🛑 {name} cancelled the {game} tournament.") if plays_at_once(tournament)
                    else _("🛑 {name} cancelled the {game} tournament in round {round}.")
                    ).format(name=escape_markdown(interaction.user.display_name),
                             game=GAMES[tournament.game].name, round=tournament.round)
        await self._say(tournament, Post(text), "its cancellation")
        await self._show(tournament, await self.db.tournament_games(tournament_id))

    async def resume(self, owns: Callable[[int | None], bool] = lambda guild_id: True) -> None:
        """After a start: carry on every running tournament of this process's servers (a
        round left half-open or a finished round not yet moved on by a crash)."""
        for tournament_id in await self.db.running_tournaments():
            tournament = await self.db.get_tournament(tournament_id)
            if tournament is not None and owns(tournament.guild_id):
                try:
                    await self.advance(tournament_id)
                except Exception:
                    log.exception("tournament %s: could not resume it", tournament_id)

    async def advance(self, tournament_id: int) -> None:
        """Open what the round lacks; once it is over, the next round or the end."""
        async with self._locks[tournament_id]:
            tournament = await self.db.get_tournament(tournament_id)
            if tournament is None or tournament.status is not TournamentStatus.RUNNING:
                return
            games = await self.db.tournament_games(tournament_id)
            rounds = rounds_of(tournament)
            at_once = plays_at_once(tournament)
            started = False
            while True:
                current = [game for game in games if game.round == tournament.round]
                opened = await self._open_round(tournament, games)
                if opened is None:
                    break  # Discord refused a thread: tried again later
                games += opened
                current += opened
                started = started or (at_once and bool(opened) and tournament.round == rounds)
                if opened and not at_once:
                    await self._announce_round(tournament, games)
                if at_once and tournament.round < rounds:
                    pass  # every round is opened before anyone plays: on to the next
                elif any(game.status is GameStatus.RUNNING
                         for game in (games if at_once else current)):
                    break
                if tournament.round < rounds:
                    if not await self.db.next_tournament_round(tournament_id, tournament.round):
                        break  # (another process moved it on: it opens the round)
                    tournament.round += 1
                    continue  # a round whose games all ended at once (aborted) moves on too
                places = {row.user_id: row.place for row in table_of(tournament, games)}
                if await self.db.finish_tournament(tournament_id, utcnow(), places):
                    tournament.status = TournamentStatus.FINISHED
                    await self._announce_end(tournament, games)
                break
            if started:
                with use_language(await self.languages.of_server(tournament.guild_id)):
                    text = start_call(tournament)
                await self._say(tournament, Post(text, mentions=discord.AllowedMentions(
                    users=True)), "its start")
            await self._show(tournament, games)

    async def _open_round(self, tournament: TournamentRecord,
                          games: Sequence[TournamentGame]) -> list[TournamentGame] | None:
        """Open the games of the tournament's round not opened yet; None when Discord
        refused a thread (a retry is scheduled)."""
        opened: list[TournamentGame] = []
        have = {frozenset(game.player_ids) for game in games if game.round == tournament.round}
        players = {player.user_id: player for player in tournament.players}
        for first, second in history(tournament, games).plans[-1].games:
            pair = (players[first], players[second])
            if frozenset((first, second)) in have:
                continue
            if any(player.withdrawn_by(tournament.round) for player in pair):
                continue  # a forfeit: nothing to play
            title = game_title(tournament.game, [player.name for player in pair],
                               tournament=True)
            try:
                thread = await self.publisher.open_thread(tournament.channel_id, title)
            except PublishFailed as failure:
                await self._refused_thread(tournament, failure)
                return None
            state = GAMES[tournament.game].new_state(2, tournament.options)
            record = await self.db.create_game(
                game=tournament.game, guild_id=tournament.guild_id, channel_id=thread,
                parent_id=tournament.channel_id,
                seats=[Seat(index, player.user_id, player.name)
                       for index, player in enumerate(pair)],
                options=tournament.options, rng_seed=random.SystemRandom().getrandbits(63),
                state=state.dump(), now=utcnow(), clock=tournament.clock,
                to_move=state.current_player, casual=tournament.casual,
                tournament=(tournament.id, tournament.round))
            opened.append(TournamentGame(record.id, tournament.round, thread,
                                         (pair[0].user_id, pair[1].user_id),
                                         GameStatus.RUNNING, None))
            await self._introduce(tournament, thread)
            await self.sessions.start(record)
        return opened

    async def _introduce(self, tournament: TournamentRecord, thread: int) -> None:
        """Say at the top of a game's thread which tournament and round it belongs to, with
        a link to the standings (best effort: the board follows all the same)."""
        with use_language(await self.languages.of_server(tournament.guild_id)):
            text = game_intro(tournament)
        try:
            await self.publisher.post(thread, Post(text))
        except PublishFailed as failure:
            log.info("tournament %s: could not introduce a game: %s", tournament.id, failure)

    async def _refused_thread(self, tournament: TournamentRecord,
                              failure: PublishFailed) -> None:
        """Say once in the channel that a round waits for a thread; try again later. A
        channel that is gone cancels the tournament: its rounds have nowhere to go."""
        if failure.problem is Problem.CHANNEL_GONE:
            if await self.db.cancel_tournament(tournament.id, utcnow()):
                log.info("tournament %s: its channel is gone; cancelled", tournament.id)
            return
        log.warning("tournament %s: could not open a thread: %s", tournament.id, failure)
        retry = self._retries.get(tournament.id)
        if retry is None or retry.done():
            self._retries[tournament.id] = asyncio.create_task(
                self._retry(tournament.id), name=f"tournament-retry-{tournament.id}")
        if (tournament.id, tournament.round) in self._refused:
            return
        self._refused.add((tournament.id, tournament.round))
        with use_language(await self.languages.of_server(tournament.guild_id)):
            text = _("⚠️ I could not open a thread for round {round} of the {game} "
                     "tournament: I need **Create Public Threads** and **Send Messages in "
                     "Threads** here. I try again every few minutes.").format(
                         round=tournament.round, game=GAMES[tournament.game].name)
        await self._say(tournament, Post(text), "a refused thread")

    async def _retry(self, tournament_id: int) -> None:
        await asyncio.sleep(RETRY_SECONDS)
        self._retries.pop(tournament_id, None)
        try:
            await self.advance(tournament_id)
        except Exception:
            log.exception("tournament %s: the retry failed", tournament_id)

    async def _announce_round(self, tournament: TournamentRecord,
                              games: Sequence[TournamentGame]) -> None:
        """Ping the round's players in the tournament's channel, with their games' threads."""
        with use_language(await self.languages.of_server(tournament.guild_id)):
            text = round_call(tournament, games)
        # (Not posted: the games are open all the same, and their threads ping their players.)
        await self._say(tournament, Post(text, mentions=discord.AllowedMentions(users=True)),
                        f"round {tournament.round}")

    async def _announce_end(self, tournament: TournamentRecord,
                            games: Sequence[TournamentGame]) -> None:
        """Hail the winner in the tournament's channel (no ping: everyone saw it coming)."""
        with use_language(await self.languages.of_server(tournament.guild_id)):
            text = end_call(tournament, games)
        await self._say(tournament, Post(text), "its end")

    async def _say(self, tournament: TournamentRecord, post: Post, what: str) -> None:
        """Post in the tournament's channel, best effort: the tournament goes on without."""
        try:
            await self.publisher.post(tournament.channel_id, post)
        except PublishFailed as failure:
            log.info("tournament %s: could not announce %s: %s", tournament.id, what, failure)

    async def _show(self, tournament: TournamentRecord,
                    games: Sequence[TournamentGame]) -> None:
        """Bring the tournament's message up to date (best effort: the next look does too)."""
        if tournament.message_id is None:
            return
        with use_language(await self.languages.of_server(tournament.guild_id)):
            embed = tournament_embed(tournament, games)
            view = tournament_view(tournament)
        try:
            await self.publisher.edit(tournament.channel_id, tournament.message_id,
                                      Post(embed=embed, view=view))
        except PublishFailed as failure:
            log.info("tournament %s: could not update its message: %s", tournament.id,
                     failure)

    async def channel_deleted(self, channel_id: int) -> int:
        """A channel was deleted: cancel the running tournaments played from it; how many."""
        return len(await self._cancel_all(
            await self.db.cancel_tournaments_in_channel(channel_id, utcnow())))

    async def server_left(self, guild_id: int) -> int:
        """The bot left a server: cancel its running tournaments; how many."""
        return len(await self._cancel_all(
            await self.db.cancel_tournaments_on_server(guild_id, utcnow())))

    async def _cancel_all(self, cancelled: list[int]) -> list[int]:
        """Stop the retries of these cancelled tournaments."""
        for tournament_id in cancelled:
            retry = self._retries.pop(tournament_id, None)
            if retry is not None:
                retry.cancel()
        return cancelled

    def close(self) -> None:
        """Stop the retries and the looks in progress (the bot is closing)."""
        for task in [*self._tasks, *self._retries.values()]:
            task.cancel()
