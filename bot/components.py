"""Every button and menu that survives a restart, and the one codec of their custom_ids.

Nothing lives in memory between clicks: a custom_id names the game (or challenge, table,
leaderboard or history page, replay position, shared text), the board version (ply) it was
drawn for, an action and its argument. A click is decoded here and handed to the
`ComponentRouter` the bot was given at start; every error ends in the one component error
handler. This is discord.py's DynamicItem pattern (examples/views/dynamic_counter.py).

| prefix | item | custom_id |
|---|---|---|
| `lg` | GameButton | `lg:<game>:<ply or x>:<action>:<arg>` |
| `ls` | GameSelect | `ls:<game>:<ply or x>:<action>` |
| `lc` | ChallengeButton | `lc:<challenge>:<accept or decline>` |
| `ll` | LobbyButton | `ll:<table>:<join, leave, start, ai_<level> or drop_ai>` |
| `lb` | LeaderboardButton | `lb:<game>:<server or global>:<page>:<p or n>` |
| `lp` | HistoryButton | `lp:<member>:<page>:<p or n>` |
| `lv` | ReplayButton | `lv:<game>:<position>:<f, p, n, l or o>` (o: open a private viewer) |
| `lh` | ShareButton | `lh:games` or `lh:rules:<game>` |
| `lt` | TournamentButton | `lt:<tournament>:<withdraw, confirm, cancel or cancel_confirm>` |
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import discord

from bot.errors import Refusal
from bot.replies import Interaction, on_component_error, speak_to
from i18n import N_, _

CUSTOM_ID_LIMIT = 100
"""Discord's limit on a custom_id's length."""

MAX_ID = 2**63 - 1
"""The largest id SQLite stores; a custom_id naming a larger one was forged."""

Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]


class Prefix(StrEnum):
    """The first field of every custom_id: which kind of component it is."""

    GAME_BUTTON = "lg"
    GAME_SELECT = "ls"
    CHALLENGE = "lc"
    LOBBY = "ll"
    LEADERBOARD = "lb"
    HISTORY = "lp"
    REPLAY = "lv"
    SHARE = "lh"
    CHALLENGE_PICK = "lk"
    TOURNAMENT = "lt"


TEMPLATES: dict[Prefix, str] = {
    Prefix.GAME_BUTTON: r"lg:(?P<game>\d+):(?P<ply>\d+|x):(?P<action>[a-z_]+):(?P<arg>.*)",
    Prefix.GAME_SELECT: r"ls:(?P<game>\d+):(?P<ply>\d+|x):(?P<action>[a-z_]+)",
    Prefix.CHALLENGE: r"lc:(?P<challenge>\d+):(?P<answer>accept|decline)",
    Prefix.LOBBY:
        r"ll:(?P<lobby>\d+):(?P<action>join|leave|start|ai_easy|ai_medium|ai_hard|drop_ai)",
    Prefix.LEADERBOARD: r"lb:(?P<game>[a-z_]+):(?P<scope>server|global):(?P<page>\d+):(?P<dir>p|n)"
                        r"(?::(?P<month>\d{4}-\d{2}))?",
    Prefix.HISTORY: r"lp:(?P<member>\d+):(?P<page>\d+):(?P<dir>p|n)(?::(?P<game>[a-z_]+))?",
    Prefix.REPLAY: r"lv:(?P<game>\d+):(?P<position>\d+):(?P<dir>[fpnlom])",
    Prefix.SHARE: r"lh:(?P<what>games|rules)(?::(?P<game>[a-z_]+))?",
    Prefix.CHALLENGE_PICK: r"lk:(?P<opponent>\d+)",
    Prefix.TOURNAMENT:
        r"lt:(?P<tournament>\d+):(?P<action>withdraw|confirm|cancel|cancel_confirm)",
}
"""The regular expression of each kind of custom_id (what DynamicItem matches)."""


def _checked(custom_id: str) -> str:
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id too long ({len(custom_id)} > {CUSTOM_ID_LIMIT}): {custom_id}")
    return custom_id


# -- what a custom_id says --------------------------------------------------------------------


@dataclass(frozen=True)
class GameAction:
    """A game component: the game, the ply it was drawn for (None: any), action, argument."""

    game_id: int
    ply: int | None
    action: str
    arg: str = ""

    def custom_id(self, prefix: Prefix) -> str:
        """`lg:12:5:step:b2:NN` for a button, `ls:12:5:stack` for a select."""
        ply = "x" if self.ply is None else str(self.ply)
        tail = f":{self.arg}" if prefix is Prefix.GAME_BUTTON else ""
        return _checked(f"{prefix}:{self.game_id}:{ply}:{self.action}{tail}")

    @classmethod
    def decode(cls, match: re.Match[str]) -> GameAction:
        """Read a matched game custom_id."""
        ply = None if match["ply"] == "x" else int(match["ply"])
        arg = match.groupdict().get("arg") or ""
        return cls(int(match["game"]), ply, match["action"], arg)


@dataclass(frozen=True)
class ChallengeAnswer:
    """Accept or Decline on a challenge."""

    challenge_id: int
    answer: str

    @property
    def custom_id(self) -> str:
        """`lc:7:accept`."""
        return _checked(f"{Prefix.CHALLENGE}:{self.challenge_id}:{self.answer}")


@dataclass(frozen=True)
class LobbyAction:
    """Join, Leave or Start on an open table."""

    lobby_id: int
    action: str

    @property
    def custom_id(self) -> str:
        """`ll:7:join`."""
        return _checked(f"{Prefix.LOBBY}:{self.lobby_id}:{self.action}")


@dataclass(frozen=True)
class LeaderboardPage:
    """A leaderboard page to show: game, scope, page number, the button's direction, and the
    month of a monthly one (`2026-11`; empty: all time)."""

    game: str
    scope: str
    page: int
    direction: str
    month: str = ""

    @property
    def custom_id(self) -> str:
        """`lb:qawale:server:1:n`, `lb:qawale:server:1:n:2026-11`."""
        month = f":{self.month}" if self.month else ""
        return _checked(f"{Prefix.LEADERBOARD}:{self.game}:{self.scope}:{self.page}:"
                        f"{self.direction}{month}")


@dataclass(frozen=True)
class HistoryPage:
    """A page of a member's `/history` to show, the button's direction, and the one game it
    lists (empty: all)."""

    member_id: int
    page: int
    direction: str
    game: str = ""

    @property
    def custom_id(self) -> str:
        """`lp:123456789:1:n`, `lp:123456789:1:n:granat`."""
        game = f":{self.game}" if self.game else ""
        return _checked(f"{Prefix.HISTORY}:{self.member_id}:{self.page}:{self.direction}{game}")


@dataclass(frozen=True)
class ReplayStep:
    """A replay viewer's button: the game, the position to show, and which button it is."""

    game_id: int
    position: int
    direction: str
    """`f`irst, `p`revious, `n`ext, `l`ast, `o`pen a new private viewer, or the `m`ove list."""

    @property
    def custom_id(self) -> str:
        """`lv:12:5:n`."""
        return _checked(f"{Prefix.REPLAY}:{self.game_id}:{self.position}:{self.direction}")


@dataclass(frozen=True)
class ShareRequest:
    """Share on a private answer: what to post in the channel (`games`, or `rules` of a game)."""

    what: str
    game: str = ""

    @property
    def custom_id(self) -> str:
        """`lh:games`, `lh:rules:qawale`."""
        tail = f":{self.game}" if self.game else ""
        return _checked(f"{Prefix.SHARE}:{self.what}{tail}")


@dataclass(frozen=True)
class ChallengePick:
    """The game menu of the member menu's Challenge to a game: whom to challenge."""

    opponent_id: int

    @property
    def custom_id(self) -> str:
        """`lk:123456789012345678`."""
        return _checked(f"{Prefix.CHALLENGE_PICK}:{self.opponent_id}")


@dataclass(frozen=True)
class TournamentAction:
    """Withdraw or Cancel under a tournament's standings, and their private confirmations."""

    tournament_id: int
    action: str

    @property
    def custom_id(self) -> str:
        """`lt:3:withdraw`, `lt:3:confirm`."""
        return _checked(f"{Prefix.TOURNAMENT}:{self.tournament_id}:{self.action}")


# -- where clicks go ----------------------------------------------------------------------------


class ComponentRouter(Protocol):
    """Where decoded clicks go; the bot hands one to the components at start."""

    async def game_action(
        self, interaction: Interaction, action: GameAction, values: list[str]
    ) -> None:
        """A game's button or menu (`values`: the options chosen in a menu)."""
        ...

    async def challenge_answer(self, interaction: Interaction, answer: ChallengeAnswer) -> None:
        """Accept or Decline on a challenge."""
        ...

    async def lobby_action(self, interaction: Interaction, action: LobbyAction) -> None:
        """Join, Leave or Start on a table."""
        ...

    async def leaderboard_page(self, interaction: Interaction, page: LeaderboardPage) -> None:
        """Previous or Next on a leaderboard."""
        ...

    async def history_page(self, interaction: Interaction, page: HistoryPage) -> None:
        """Newer or Older on a member's history."""
        ...

    async def replay_step(self, interaction: Interaction, step: ReplayStep) -> None:
        """First, Previous, Next or Last in a replay viewer, or Step through under a replay."""
        ...

    async def share(self, interaction: Interaction, request: ShareRequest) -> None:
        """Share: post a private answer's embed in the channel."""
        ...

    async def challenge_pick(self, interaction: Interaction, pick: ChallengePick,
                             game: str) -> None:
        """A game chosen in the member menu's picker: challenge that member to it."""
        ...

    async def tournament_action(self, interaction: Interaction,
                                action: TournamentAction) -> None:
        """Withdraw from a tournament, or confirm it."""
        ...


@runtime_checkable
class RoutingClient(Protocol):
    """A client that was given a router (the bot is one)."""

    @property
    def router(self) -> ComponentRouter:
        """Where the components send their clicks."""
        ...


def router_of(interaction: Interaction) -> ComponentRouter:
    """The router of the client that received this click."""
    client = interaction.client
    if not isinstance(client, RoutingClient):
        raise RuntimeError("the client has no component router")
    return client.router


async def _route(
    interaction: Interaction, custom_id: str,
    call: Callable[[ComponentRouter], Awaitable[None]],
) -> None:
    """Run a click's handler; every error goes to the one component error handler."""
    speak_to(interaction)
    try:
        await call(router_of(interaction))
    except Exception as error:
        await on_component_error(interaction, error, custom_id)


# -- the items -------------------------------------------------------------------------------


class GameButton(discord.ui.DynamicItem[Button], template=TEMPLATES[Prefix.GAME_BUTTON]):
    """A button of a game: on a board, or in a player's private panel."""

    def __init__(self, game_id: int, ply: int | None, action: str, arg: str = "",
                 **button: Any) -> None:
        self.action = GameAction(game_id, ply, action, arg)
        super().__init__(discord.ui.Button(custom_id=self.action.custom_id(Prefix.GAME_BUTTON),
                                           **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameButton:
        """Rebuild the button from its custom_id."""
        action = GameAction.decode(match)
        return cls(action.game_id, action.ply, action.action, action.arg)

    async def callback(self, interaction: Interaction) -> None:
        """Hand the click to the game's controls."""
        await _route(interaction, self.item.custom_id or "",
                     lambda router: router.game_action(interaction, self.action, []))


class GameSelect(discord.ui.DynamicItem[Select], template=TEMPLATES[Prefix.GAME_SELECT]):
    """A select menu of a game (its options are the choices of one decision)."""

    def __init__(self, game_id: int, ply: int | None, action: str, **select: Any) -> None:
        self.action = GameAction(game_id, ply, action)
        super().__init__(discord.ui.Select(custom_id=self.action.custom_id(Prefix.GAME_SELECT),
                                           **select))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameSelect:
        """Rebuild the menu from its custom_id."""
        action = GameAction.decode(match)
        return cls(action.game_id, action.ply, action.action)

    async def callback(self, interaction: Interaction) -> None:
        """Hand the chosen options to the game's controls."""
        values = list(self.item.values)

        async def chosen(router: ComponentRouter) -> None:
            if not values:  # Discord asks for one; only a modified client sends none
                raise Refusal(_("Choose one of the menu's options."))
            await router.game_action(interaction, self.action, values)

        await _route(interaction, self.item.custom_id or "", chosen)


class ChallengeButton(discord.ui.DynamicItem[Button], template=TEMPLATES[Prefix.CHALLENGE]):
    """Accept or Decline on a challenge message."""

    def __init__(self, challenge_id: int, answer: str, **button: Any) -> None:
        self.answer = ChallengeAnswer(challenge_id, answer)
        super().__init__(discord.ui.Button(custom_id=self.answer.custom_id, **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChallengeButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["challenge"]), match["answer"])

    async def callback(self, interaction: Interaction) -> None:
        """Answer the challenge."""
        await _route(interaction, self.answer.custom_id,
                     lambda router: router.challenge_answer(interaction, self.answer))


class LobbyButton(discord.ui.DynamicItem[Button], template=TEMPLATES[Prefix.LOBBY]):
    """Join, Leave or Start on an open table."""

    def __init__(self, lobby_id: int, action: str, **button: Any) -> None:
        self.lobby_action = LobbyAction(lobby_id, action)
        super().__init__(discord.ui.Button(custom_id=self.lobby_action.custom_id, **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["lobby"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        """Join, leave or start the table."""
        await _route(interaction, self.lobby_action.custom_id,
                     lambda router: router.lobby_action(interaction, self.lobby_action))


class LeaderboardButton(discord.ui.DynamicItem[Button], template=TEMPLATES[Prefix.LEADERBOARD]):
    """Previous or Next on a leaderboard; the page to show is in the custom_id."""

    def __init__(self, game: str, scope: str, page: int, direction: str, month: str = "",
                 **button: Any) -> None:
        self.page = LeaderboardPage(game, scope, page, direction, month)
        super().__init__(discord.ui.Button(custom_id=self.page.custom_id,
                                           style=discord.ButtonStyle.secondary, **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardButton:
        """Rebuild the button from its custom_id."""
        return cls(match["game"], match["scope"], int(match["page"]), match["dir"],
                   match["month"] or "")

    async def callback(self, interaction: Interaction) -> None:
        """Show the page."""
        await _route(interaction, self.page.custom_id,
                     lambda router: router.leaderboard_page(interaction, self.page))


class HistoryButton(discord.ui.DynamicItem[Button], template=TEMPLATES[Prefix.HISTORY]):
    """Newer or Older on a member's history; the member and the page are in the custom_id."""

    def __init__(self, member_id: int, page: int, direction: str, game: str = "",
                 **button: Any) -> None:
        self.page = HistoryPage(member_id, page, direction, game)
        super().__init__(discord.ui.Button(custom_id=self.page.custom_id,
                                           style=discord.ButtonStyle.secondary, **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["member"]), int(match["page"]), match["dir"], match["game"] or "")

    async def callback(self, interaction: Interaction) -> None:
        """Show the page."""
        await _route(interaction, self.page.custom_id,
                     lambda router: router.history_page(interaction, self.page))


class ReplayButton(discord.ui.DynamicItem[Button], template=TEMPLATES[Prefix.REPLAY]):
    """First, Previous, Next, Last (or Step through); the position to show is in the custom_id."""

    def __init__(self, game_id: int, position: int, direction: str, **button: Any) -> None:
        self.step = ReplayStep(game_id, position, direction)
        super().__init__(discord.ui.Button(custom_id=self.step.custom_id,
                                           style=discord.ButtonStyle.secondary, **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["position"]), match["dir"])

    async def callback(self, interaction: Interaction) -> None:
        """Show the position."""
        await _route(interaction, self.step.custom_id,
                     lambda router: router.replay_step(interaction, self.step))


class ShareButton(discord.ui.DynamicItem[Button], template=TEMPLATES[Prefix.SHARE]):
    """Share under a private answer: posts the same embed in the channel."""

    def __init__(self, what: str, game: str = "", **button: Any) -> None:
        self.request = ShareRequest(what, game)
        super().__init__(discord.ui.Button(custom_id=self.request.custom_id, label=_("Share"),
                                           emoji="📣", style=discord.ButtonStyle.primary,
                                           **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ShareButton:
        """Rebuild the button from its custom_id."""
        return cls(match["what"], match["game"] or "")

    async def callback(self, interaction: Interaction) -> None:
        """Post the embed publicly."""
        await _route(interaction, self.request.custom_id,
                     lambda router: router.share(interaction, self.request))


class ChallengePickSelect(discord.ui.DynamicItem[Select],
                          template=TEMPLATES[Prefix.CHALLENGE_PICK]):
    """The private menu of games opened by the member menu's Challenge to a game."""

    def __init__(self, opponent_id: int, **select: Any) -> None:
        self.pick = ChallengePick(opponent_id)
        super().__init__(discord.ui.Select(custom_id=self.pick.custom_id, **select))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChallengePickSelect:
        """Rebuild the menu from its custom_id."""
        return cls(int(match["opponent"]))

    async def callback(self, interaction: Interaction) -> None:
        """Challenge the member to the chosen game."""
        values = list(self.item.values)

        async def chosen(router: ComponentRouter) -> None:
            if len(values) != 1:  # Discord sends one; only a modified client sends others
                raise Refusal(_("Choose one of the menu's options."))
            await router.challenge_pick(interaction, self.pick, values[0])

        await _route(interaction, self.pick.custom_id, chosen)


class TournamentButton(discord.ui.DynamicItem[Button], template=TEMPLATES[Prefix.TOURNAMENT]):
    """Withdraw under a tournament's standings, or its confirmation."""

    def __init__(self, tournament_id: int, action: str, **button: Any) -> None:
        self.tournament_action = TournamentAction(tournament_id, action)
        super().__init__(discord.ui.Button(custom_id=self.tournament_action.custom_id,
                                           **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["tournament"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        """Withdraw, or confirm it."""
        await _route(interaction, self.tournament_action.custom_id,
                     lambda router: router.tournament_action(interaction,
                                                             self.tournament_action))


COMPONENTS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    GameButton, GameSelect, ChallengeButton, LobbyButton, LeaderboardButton, HistoryButton,
    ReplayButton, ShareButton, ChallengePickSelect, TournamentButton)
"""Every restart-proof component, registered once by the bot at start."""

UNKNOWN_CONTROL = N_("This control is not one I know (it may come from an old message or a "
                     "modified app). Use the buttons under the latest board, or `/board`.")
"""In English (N_-marked): say it with `_(UNKNOWN_CONTROL)`."""


def is_routed(custom_id: str, message: discord.Message | None) -> bool:
    """True when discord.py will hand this click to one of the items above.

    discord.py routes a click to a DynamicItem only when a template matches its custom_id
    and the message it came from carries a component with that custom_id; any other click
    would go unanswered ("This interaction failed"), so the bot answers it instead.
    """
    if not any(re.fullmatch(template, custom_id) for template in TEMPLATES.values()):
        return False
    if message is None:
        return False
    return any(getattr(item, "custom_id", None) == custom_id
               for row in message.components for item in getattr(row, "children", [row]))
