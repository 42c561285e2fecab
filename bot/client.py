"""The composition root: builds storage, registries and services, and wires them together.

Nothing below this module knows the client: services get the database, the game registry
and a publisher; cogs get services; components get the router through `RoutingClient`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.absences import Absences
from bot.ai_players import ProcessThinker, Thinker, ThreadThinker
from bot.backups import BackupSchedule, backup_schedule
from bot.challenges import ChallengeService
from bot.cogs.lobby import Lobby
from bot.cogs.play import Play
from bot.cogs.records import Records
from bot.cogs.servers import Servers
from bot.cogs.settings import PlayerSettings
from bot.components import COMPONENTS, UNKNOWN_CONTROL, ComponentRouter, is_routed
from bot.config import WEBHOOK_URL, Settings
from bot.deadlines import DeadlineService
from bot.error_reports import ErrorReports
from bot.games import GAME_UIS
from bot.health import Heartbeat
from bot.languages import Languages
from bot.painter import Painter, ProcessPainter, ThreadPainter
from bot.privacy import PrivacyService
from bot.publisher import DiscordPublisher, Publisher
from bot.ratings import rate_game
from bot.recaps import RecapService
from bot.records import RecordsService
from bot.replies import Interaction, on_app_command_error, speak_to, tell
from bot.router import Router
from bot.session_manager import SessionManager
from bot.timers import TimerLoop
from bot.tournaments import TournamentService
from i18n import DEFAULT_LANGUAGE, language_of, translate
from storage import Database

log = logging.getLogger(__name__)

DRAIN_SECONDS = 5.0
"""How long closing waits for the moves in progress to be stored and shown: well within the
10 s `docker stop` gives a process before it kills it."""

REPORTS_ON_CLOSE_SECONDS = 2.0
"""How long closing waits to post the last error reports (after the drain: still within the
10 s `docker stop` gives)."""

DESCRIPTION_LIMIT = 100
"""Discord's limit on a command's or option's description."""

NAMES = (app_commands.TranslationContextLocation.command_name,
         app_commands.TranslationContextLocation.group_name,
         app_commands.TranslationContextLocation.parameter_name)
"""Command and option names stay English for everyone, so members and docs share them (a
context menu's name is translated: it is read, never typed)."""


class CatalogueTranslator(app_commands.Translator):
    """Commands' descriptions and choices in each member's client language, from the
    catalogues (Discord shows them; names stay as typed in English)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The French text of a description or choice; None keeps the English one."""
        language = language_of(str(locale))
        # A context menu's name is what members read in the Apps menu: it is translated.
        menu = isinstance(context.data, app_commands.ContextMenu)
        if language is DEFAULT_LANGUAGE or (context.location in NAMES and not menu):
            return None
        template = string.extras.get("template")
        if template:  # a text built from pieces (a game option's help): translate each
            params = {key: translate(language, str(value))
                      for key, value in string.extras.get("params", {}).items()}
            text = translate(language, template).format(**params)
            return text if len(text) <= DESCRIPTION_LIMIT else text[:DESCRIPTION_LIMIT - 1] + "…"
        text = translate(language, string.message)
        return text if text != string.message else None


class LudothequeTree(app_commands.CommandTree[discord.Client]):
    """The command tree: each command (and autocomplete) answers in its member's language."""

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """Set the interaction's language; every command may run."""
        speak_to(interaction)
        return True


@dataclass
class Services:
    """Everything one bot process runs besides its Discord connection."""

    thinker: Thinker
    painter: Painter
    languages: Languages
    absences: Absences
    sessions: SessionManager
    challenges: ChallengeService
    records: RecordsService
    deadlines: DeadlineService
    timers: TimerLoop
    privacy: PrivacyService
    recaps: RecapService


def build_services(db: Database, publisher: Publisher, settings: Settings,
                   preferred_locale: Callable[[int], str | None]) -> Services:
    """Wire a process's services to its database and its way of talking to Discord."""
    thinker = ProcessThinker(settings.ai_workers) if settings.ai_workers else ThreadThinker()
    painter = (ProcessPainter(settings.render_workers) if settings.render_workers
               else ThreadPainter())
    languages = Languages(db, preferred_locale)
    absences = Absences(db)
    sessions = SessionManager(db, GAME_UIS, publisher, thinker, painter=painter,
                              languages=languages, absences=absences,
                              archive_after=settings.archive_after)
    tournaments = TournamentService(db, sessions, publisher, languages)
    sessions.game_ended = tournaments.game_ended
    challenges = ChallengeService(db, sessions, GAME_UIS, publisher, languages, tournaments)
    deadlines = DeadlineService(db, sessions, publisher)
    timers = TimerLoop(db, deadlines.actions(), settings.shards)
    sessions.timers_changed = absences.timers_changed = timers.wake
    return Services(thinker, painter, languages, absences, sessions, challenges,
                    RecordsService(db, GAME_UIS, painter), deadlines, timers,
                    PrivacyService(db, sessions, languages, publisher),
                    RecapService(db, publisher, languages, settings.owns))


class Ludotheque(commands.AutoShardedBot):
    """The bot. Built by `create_bot()`; connects only when run."""

    db: Database
    sessions: SessionManager
    challenges: ChallengeService
    records: RecordsService
    deadlines: DeadlineService
    timers: TimerLoop
    recaps: RecapService
    thinker: Thinker
    painter: Painter
    languages: Languages
    backups: BackupSchedule | None
    heartbeat: Heartbeat | None
    error_reports: ErrorReports | None
    _router: Router

    def __init__(self, settings: Settings) -> None:
        # No privileged intent: slash commands and components carry everything we need.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, tree_cls=LudothequeTree,
                         shard_count=settings.shard_count,
                         shard_ids=list(settings.shard_ids or range(settings.shard_count)))
        self.settings = settings
        self.tree.error(on_app_command_error)
        self._resumed = False
        self._started = False

    @property
    def router(self) -> ComponentRouter:
        """Where the restart-proof components send their clicks."""
        return self._router

    async def setup_hook(self) -> None:
        """Open storage, build the services, register commands and components, sync, resume."""
        self.db = await Database.open(self.settings.database_url, rater=rate_game)
        services = build_services(self.db, DiscordPublisher(self), self.settings,
                                  self._preferred_locale)
        self.thinker, self.painter = services.thinker, services.painter
        self.languages, self.sessions = services.languages, services.sessions
        self.challenges, self.records = services.challenges, services.records
        self.deadlines, self.timers = services.deadlines, services.timers
        self.recaps = services.recaps
        self._router = Router(self.sessions, self.challenges, self.records)
        self.backups = backup_schedule(self.settings)
        self.heartbeat = (Heartbeat(Path(self.settings.health_file), self.healthy)
                          if self.settings.health_file else None)
        self.error_reports = self._report_errors(self.settings.error_webhook_url)
        metrics.watch(sessions=lambda: len(self.sessions), latency=lambda: self.latency)
        await services.absences.load()  # before any move: a turn's clock reads it
        self._started = True
        self.add_dynamic_items(*COMPONENTS)
        lobby = Lobby(self.challenges, self.painter)
        await self.add_cog(lobby)
        self.tree.add_command(lobby.challenge_menu)
        await self.add_cog(Play(self.sessions, self.challenges.tournaments, self.challenges))
        await self.add_cog(Records(self.records))
        await self.add_cog(Servers(self.sessions, self.challenges, self.languages))
        await self.add_cog(PlayerSettings(self.deadlines, self.languages, self.challenges,
                                          services.privacy, services.absences, self.recaps))
        await self.tree.set_translator(CatalogueTranslator())
        await self._sync_commands()
        await self.challenges.resume(owns=self.settings.owns)

    def _report_errors(self, url: str | None) -> ErrorReports | None:
        """Post every error logged from now on to the operator's webhook, if there is one."""
        if url is None:
            return None
        parts = WEBHOOK_URL.fullmatch(url)
        assert parts is not None  # checked by Settings.from_env
        webhook = discord.Webhook.partial(int(parts["id"]), parts["token"], client=self)

        async def send(text: str) -> None:
            await webhook.send(text, username="Ludothèque errors",
                               allowed_mentions=discord.AllowedMentions.none())

        reports = ErrorReports(send)
        logging.getLogger().addHandler(reports)
        reports.start()
        return reports

    async def _sync_commands(self) -> None:
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    def _preferred_locale(self, guild_id: int) -> str | None:
        """A server's preferred locale, from the gateway's cache."""
        guild = self.get_guild(guild_id)
        return str(guild.preferred_locale) if guild is not None else None

    async def on_interaction(self, interaction: Interaction) -> None:
        """Note the member's locale (for their DMs); answer a click no component will take
        (a forged or unknown custom_id)."""
        await self.languages.saw_member(interaction.user.id, str(interaction.locale))
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, object] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not is_routed(custom_id, interaction.message):
            await tell(interaction, translate(language_of(str(interaction.locale)),
                                              UNKNOWN_CONTROL))

    async def on_ready(self) -> None:
        """Resume running games once (on_ready fires again after reconnects)."""
        if self._resumed:
            return
        self._resumed = True
        count = await self.sessions.resume_all(owns=self.settings.owns)
        self.timers.start()  # after resuming: a timeout acts on a current board
        # A round a crash left half-open, or a finished round not moved on yet.
        await self.challenges.tournaments.resume(owns=self.settings.owns)
        self.recaps.start()  # last month's, if the bot was down when it ended
        if self.backups is not None:
            self.backups.start()
        if self.heartbeat is not None:
            self.heartbeat.start()
        log.info("Ludothèque ready as %s; %d running game(s) resumed", self.user, count)
        # Ratings of games finished before the ratings table existed, in small batches: the
        # bot already answers meanwhile.
        await self.records.catch_up()

    async def healthy(self) -> bool:
        """Connected to Discord on every shard and the database answers."""
        if not self.is_ready() or self.is_closed():
            return False
        if any(shard.is_closed() for shard in self.shards.values()):
            return False
        await self.db.schema_version()  # raises if the database does not answer
        return True

    async def close(self) -> None:
        """Let the moves in progress finish (up to `DRAIN_SECONDS`), stop timers and close the
        database, then disconnect. Closing twice closes once."""
        if self._started:
            self._started = False
            if self.heartbeat is not None:
                self.heartbeat.close()  # unhealthy from now on: it is stopping
            busy = await self.sessions.drain(DRAIN_SECONDS)
            if busy:
                log.warning("closing with %d game(s) still busy: the next start shows their "
                            "boards", busy)
            self.challenges.cancel_timers()
            self.challenges.tournaments.close()
            self.timers.close()
            self.recaps.close()
            if self.backups is not None:
                self.backups.close()
            self.sessions.close()
            self.thinker.close()
            self.painter.close()
            await self.db.close()
            if self.error_reports is not None:  # what the closing logged, then no more
                with contextlib.suppress(TimeoutError):  # within Docker's 10 s grace
                    await asyncio.wait_for(self.error_reports.post_waiting(),
                                           REPORTS_ON_CLOSE_SECONDS)
                logging.getLogger().removeHandler(self.error_reports)
                self.error_reports.close()
        await super().close()


def create_bot(settings: Settings | None = None) -> Ludotheque:
    """Build the bot from `settings` (default: the environment) without connecting."""
    return Ludotheque(settings or Settings.from_env())
