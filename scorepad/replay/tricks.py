"""Replaying a hand from its cards (a `file.HandFile`): the deal checked, the bury, the call and
every trick, each play checked against the rules of following suit and the called ace, and the
hand worked out as scoring takes it. Pure: the command line reads the file and prints."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..cards import (
    DECK,
    SHORT_DECK,
    Card,
    Game,
    Rank,
    Suit,
    card_name,
    card_points,
    parse_suit,
    suit_word,
)
from ..errors import CardError, ScorepadError, worded
from ..i18n import game_word
from ..i18n import gettext as _
from ..i18n import language as language_in_force
from ..rules import Rules
from ..scoring import PickerHand, RamschHand, Score, find_player, score
from .file import HandFile, HandFileError

FAIL_SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS)


@dataclass(frozen=True)
class Trick:
    """One trick as played: who led, the cards in order, who won it and what it held."""

    number: int
    leader: str
    plays: tuple[tuple[str, Card], ...]
    winner: str
    card: Card
    why: str
    points: int


@dataclass(frozen=True)
class Misplay:
    """Something played against the rules (a renege, a called-ace rule), with its trick."""

    trick: int | None
    player: str | None
    message: str

    def __str__(self) -> str:
        where = _("trick {trick}: ").format(trick=self.trick) if self.trick else ""
        return f"{where}{self.message}"


@dataclass(frozen=True)
class HandReplay:
    """A whole hand worked out from its cards."""

    rules: Rules
    players: tuple[str, ...]
    dealer: str
    picker: str | None  # None: a Ramsch (nobody played)
    partners: tuple[str, ...]
    game: Game
    call_text: str
    bury: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    problems: tuple[Misplay, ...]
    points: int  # the picker's side, bury included
    side_tricks: int
    runs: int | None
    crack: str | None
    recrack: bool
    score: Score | None
    ramsch: RamschHand | None = None  # a Ramsch: the hand as each player's points give it
    player_points: Mapping[str, int] | None = None  # a Ramsch: each player's card points
    knocks: int = 0
    stoss: int = 0
    called: str | None = None  # what was called, as a hand's `called` input holds it

    @property
    def ok(self) -> bool:
        return not self.problems

    def hand(self) -> PickerHand | RamschHand:
        """The hand as `scorepad hand` would record it."""
        return self.ramsch if self.ramsch is not None else _picker_hand(self)


def _deck_for(rules: Rules, players: int) -> tuple[Card, ...]:
    deal = rules.deal(players)
    size = players * deal.cards + deal.blind
    return DECK if size == len(DECK) else SHORT_DECK


def _check_deal(hand: HandFile, rules: Rules) -> None:
    """The deal itself: the right cards, the right number each, the bury from the picker."""
    players = hand.players
    deal = rules.deal(len(players))
    if deal is None:
        counts = ", ".join(str(n) for n in sorted(rules.deals))
        raise HandFileError(
            hand.lines.get("players", 1),
            _("{len_players} players: {name} rules deal for {counts}").format(
                len_players=len(players), name=rules.name, counts=counts
            ),
        )
    for player in players:
        if player not in hand.hands:
            raise HandFileError(
                hand.lines.get("players", 1),
                _("no cards for {player}: add a line '{player}: ...'").format(player=player),
            )
        if len(hand.hands[player]) != deal.cards:
            raise HandFileError(
                hand.lines[f"hand {player}"],
                _(
                    "{player} has {len_hands} cards; a {len_players}-handed deal gives {cards} each"
                ).format(
                    player=player,
                    len_hands=len(hand.hands[player]),
                    len_players=len(players),
                    cards=deal.cards,
                ),
            )
    if len(hand.blind) != deal.blind:
        raise HandFileError(
            hand.lines.get("blind", hand.lines.get("players", 1)),
            _("the blind has {len_blind} cards; this deal has {blind}").format(
                len_blind=len(hand.blind), blind=deal.blind
            ),
        )
    dealt = [c for p in players for c in hand.hands[p]] + hand.blind
    deck = _deck_for(rules, len(players))
    seen: dict[Card, str] = {}
    for player in [*players, "the blind"]:
        cards = hand.blind if player == "the blind" else hand.hands[player]
        for card in cards:
            if card in seen:
                line = (
                    hand.lines.get("blind", 1)
                    if player == "the blind"
                    else hand.lines[f"hand {player}"]
                )
                raise HandFileError(
                    line,
                    _("{card} is dealt twice ({seen} and {player})").format(
                        card=card_name(card), seen=seen[card], player=player
                    ),
                )
            if card not in deck:
                raise HandFileError(
                    hand.lines.get(f"hand {player}", 1),
                    _("{card} is not in the {len_deck}-card pack").format(
                        card=card_name(card), len_deck=len(deck)
                    ),
                )
            seen[card] = player
    missing = [card_name(c) for c in deck if c not in seen]
    if missing or len(dealt) != len(deck):
        raise HandFileError(
            hand.lines.get("players", 1),
            _("the deal misses {missing}").format(missing=", ".join(missing)),
        )
    if hand.dealer is None:
        raise HandFileError(1, _("no 'dealer:' line"))
    ramsch = (hand.game or "").split()[:1] == ["ramsch"]
    if hand.picker is None and not ramsch:
        raise HandFileError(
            1, _("no 'picker:' line (replay checks hands that someone picked, or a Ramsch)")
        )
    if hand.picker is not None and ramsch:
        raise HandFileError(hand.lines["picker"], _("picker: in a Ramsch nobody played a game"))


@dataclass(frozen=True)
class Call:
    """How the picker found a partner: the called card (None: alone, a game without a call,
    or a jack that names the partner) and the unknown card played in its place, if any."""

    partners: tuple[str, ...]
    said: str
    card: Card | None = None
    unknown: Card | None = None

    @property
    def suit(self) -> Suit | None:
        """The called suit, whose first lead the called-ace rules turn on."""
        return self.card.suit if self.card is not None else None


@dataclass(frozen=True)
class Play:
    """One card played, and where in the hand it falls."""

    trick: int
    player: str
    card: Card
    leads: bool  # the first card of its trick
    held: list[Card]  # the player's cards as the card is played (the card among them)
    first_of_called: bool  # the trick is the called suit's first lead
    called_led_before: bool  # the called suit was led in an earlier trick
    last_trick: bool


def _call(
    hand: HandFile, rules: Rules, holding: Mapping[str, list[Card]], problems: list[Misplay]
) -> Call:
    """The partners and the call, from the `call:` line; what breaks the calling rules is
    added to `problems`."""
    picker, players = hand.picker, hand.players
    assert picker is not None
    deal = rules.deal(len(players))
    line = hand.lines.get("call", 1)
    words = hand.call.replace(",", " ").split()
    if rules.is_schafkopf:
        game = (hand.game or "partner").split()[0].lower()
        if game == "hochzeit":
            # The hands are given as they were after the offered trump changed hands.
            if len(words) != 1:
                raise HandFileError(line, _("call: name the player who took the hochzeit"))
            try:
                taker = find_player(words[0], players, "call:")
            except ScorepadError as exc:
                raise HandFileError(line, str(exc).strip()) from None
            if taker == picker:
                raise HandFileError(
                    line, _("call: {picker} offered the hochzeit").format(picker=picker)
                )
            return Call((taker,), _("plays a hochzeit, taken by {taker}").format(taker=taker))
        if game != "partner":
            if words:
                raise HandFileError(
                    line, _("a {game} has no call: it is one against three").format(game=game)
                )
            return Call((), _("plays a {game}").format(game=game_text(hand.game)))
    if not words or words[0].lower() == "alone":
        if deal.partners and not words:
            raise HandFileError(line, _("no 'call:' line: give the called card, or 'alone'"))
        return Call((), _("goes alone"))
    called = _card_of(words[0], line)
    if deal.partners == 0:
        raise HandFileError(
            line,
            _("a {len_players}-handed picker plays alone: write 'call: alone'").format(
                len_players=len(players)
            ),
        )
    holder = next(
        p for p in players if called in hand.hands[p] or (p == picker and called in hand.blind)
    )
    if called.rank == Rank.JACK:
        return _jack_call(hand, called, holder, deal.partners)
    unknown = None
    if len(words) == 3 and words[1].lower() == "unknown":
        unknown = _card_of(words[2], line)
    elif len(words) != 1:
        raise HandFileError(line, _("call: write a card (AC), 'AS unknown 7C', or 'alone'"))
    problems += _call_problems(rules, picker, called, unknown, holding[picker])
    said = _("calls {card}").format(card=card_name(called)) + (
        _(" (unknown card {unknown})").format(unknown=card_name(unknown)) if unknown else ""
    )
    return Call((holder,) if holder != picker else (), said, called, unknown)


_SAU_OF = {Suit.CLUBS: "eichel", Suit.SPADES: "gras", Suit.DIAMONDS: "schellen"}


def _called(rules: Rules, call: Call) -> str | None:
    """The `call:` line as a hand's `called` input holds it (`clubs`, `ten-hearts`, `unknown`;
    in Schafkopf the Sau's suit, `gras`); None where nothing was called (alone, a jack, a game
    without a call), or what was called is no ace or ten of a suit that may be called (a
    problem the replay lists)."""
    card = call.card
    if card is None:
        return None
    if rules.is_schafkopf:
        return _SAU_OF.get(card.suit) if card.rank == Rank.ACE else None
    if card.suit not in FAIL_SUITS or card.rank not in (Rank.ACE, Rank.TEN):
        return None
    if call.unknown is not None:
        return "unknown"
    suit = {Suit.CLUBS: "clubs", Suit.SPADES: "spades", Suit.HEARTS: "hearts"}[card.suit]
    return suit if card.rank == Rank.ACE else f"ten-{suit}"


def game_text(game: str | None) -> str:
    """A hand file's game (`farbwenz C`) as the language says it: as written in English, the
    game's name and its suit's in another (`Farbwenz Eichel`)."""
    if not game or language_in_force() == "en":
        return game or ""
    name, *rest = game.split()
    words = [game_word(name.lower())]
    for word in rest:
        try:
            words.append(suit_word(parse_suit(word)))
        except ScorepadError:
            words.append(word)
    return " ".join(words)


def _card_of(text: str, line: int) -> Card:
    try:
        return Card.parse(text)
    except CardError as exc:
        raise HandFileError(line, f"call: {exc}") from None


def _jack_call(hand: HandFile, called: Card, holder: str, partners_allowed: int) -> Call:
    """The jack of diamonds (or a jack called up) names the partner."""
    picker, players = hand.picker, hand.players
    assert picker is not None
    partners: tuple[str, ...] = () if holder == picker else (holder,)
    if partners_allowed == 2:  # Pagat's six-handed game: the picker's right is a partner too
        right = players[(players.index(picker) - 1) % len(players)]
        partners = tuple(dict.fromkeys((*partners, right)))
    return Call(
        tuple(p for p in partners if p != picker),
        _("the {called} names the partner").format(called=card_name(called)),
    )


def _call_problems(
    rules: Rules, picker: str, called: Card, unknown: Card | None, own: list[Card]
) -> list[Misplay]:
    """What is wrong with calling `called` holding `own` (after the bury)."""
    game = Game.schafkopf("partner") if rules.is_schafkopf else Game.sheepshead()
    callable_suits = (
        tuple(s for s in Suit if s != Suit.HEARTS) if rules.is_schafkopf else FAIL_SUITS
    )
    found = []
    if game.is_trump(called) or called.suit not in callable_suits:
        found.append(
            _("{called} cannot be called: call the ace of a suit that is not trump").format(
                called=card_name(called)
            )
        )
    if called in own:
        found.append(
            _("{picker} called {called}, which {picker} holds").format(
                picker=picker, called=card_name(called)
            )
        )
    if called.rank == Rank.TEN:
        if not all(Card(Rank.ACE, s) in own for s in FAIL_SUITS):
            found.append(
                _("{picker} may call a 10 only holding all three fail aces").format(picker=picker)
            )
    elif called.rank != Rank.ACE:
        found.append(
            _(
                "{called} cannot be called: call an ace (a 10 only when holding all "
                "three fail aces)"
            ).format(called=card_name(called))
        )
    if unknown is not None:
        if unknown not in own:
            found.append(
                _("the unknown card {unknown} is not in {picker}'s hand after the bury").format(
                    unknown=card_name(unknown), picker=picker
                )
            )
    elif not any(game.suit_of(c) == called.suit for c in own):
        found.append(
            _("{picker} called {called} without keeping a {suit_word} (after the bury)").format(
                picker=picker, called=card_name(called), suit_word=suit_word(called.suit)
            )
        )
    return [Misplay(None, picker, message) for message in found]


def _game(hand: HandFile, rules: Rules) -> Game:
    if not rules.is_schafkopf:
        if hand.game:
            raise HandFileError(hand.lines["game"], _("game: only Schafkopf hands declare a game"))
        return Game.sheepshead()
    words = (hand.game or "partner").split()
    name = words[0].lower()
    try:
        return Game.schafkopf(name, parse_suit(words[1]) if len(words) > 1 else None)
    except CardError as exc:
        raise HandFileError(hand.lines.get("game", 1), f"game: {exc}") from None


def replay(hand: HandFile, rules: Rules) -> HandReplay:
    """Check the deal and every play, and work the hand out; problems are collected, not
    raised (a deal that cannot be replayed at all raises HandFileError)."""
    _check_deal(hand, rules)
    players, picker = hand.players, hand.picker
    assert hand.dealer is not None
    game = _game(hand, rules)
    if picker is None:
        return _replay_ramsch(hand, rules, game)
    problems: list[Misplay] = []
    holding = _after_the_bury(hand)
    call = _call(hand, rules, holding, problems)
    if game.name == "sie":
        tops = [c for c in game.trumps if c.rank in (Rank.QUEEN, Rank.JACK)]
        lacking = [card_name(c) for c in tops if c not in hand.hands[picker]]
        if lacking:
            problems.append(
                Misplay(
                    None,
                    picker,
                    _(
                        "a sie is all four obers and all four unters; {picker} lacks {lacking}"
                    ).format(picker=picker, lacking=", ".join(lacking)),
                )
            )
    tricks = _play(hand, rules, game, call, holding, problems)
    side = {picker, *call.partners}
    points = card_points(hand.bury) + sum(t.points for t in tricks if t.winner in side)
    side_tricks = sum(1 for t in tricks if t.winner in side)
    runs = _runs(hand, game, side) if rules.is_schafkopf and game.trumps else None
    outcome = HandReplay(
        rules,
        tuple(players),
        hand.dealer,
        picker,
        call.partners,
        game,
        call.said,
        tuple(hand.bury),
        tuple(tricks),
        tuple(problems),
        points,
        side_tricks,
        runs,
        hand.crack,
        hand.recrack,
        None,
        knocks=hand.knocks,
        stoss=hand.stoss,
        called=_called(rules, call) if call.partners else None,
    )
    try:
        result = score(rules, outcome.hand(), explain=True)
    except ScorepadError as exc:
        problems.append(Misplay(None, None, _("the hand cannot be scored: {exc}").format(exc=exc)))
        result = None
    return replace(outcome, problems=tuple(problems), score=result)


def _replay_ramsch(hand: HandFile, rules: Rules, game: Game) -> HandReplay:
    """A Ramsch: everyone plays alone; each player's card points and tricks give the loser
    (a tie settled by the `loser:` line), every jungfrau and a durchmarsch."""
    assert hand.dealer is not None
    if not rules.is_schafkopf:
        raise HandFileError(hand.lines.get("game", 1), _("game: Ramsch is a Schafkopf game"))
    if hand.stoss:
        raise HandFileError(hand.lines["stoss"], _("stoss: nobody gives a Stoss in a Ramsch"))
    problems: list[Misplay] = []
    holding = {p: list(hand.hands[p]) for p in hand.players}
    tricks = _play(hand, rules, game, Call((), "Ramsch"), holding, problems)
    points = dict.fromkeys(hand.players, 0)
    taken = dict.fromkeys(hand.players, 0)
    for trick in tricks:
        points[trick.winner] += trick.points
        taken[trick.winner] += 1
    everything = [p for p in hand.players if taken[p] == len(tricks)]
    if everything:
        ramsch = RamschHand(
            tuple(hand.players), dealer=hand.dealer, durchmarsch=everything[0], knocks=hand.knocks
        )
    else:
        ramsch = RamschHand(
            tuple(hand.players),
            dealer=hand.dealer,
            ramsch_points=points,
            losers=(hand.loser,) if hand.loser else (),
            jungfrau=tuple(p for p in hand.players if not taken[p]),
            knocks=hand.knocks,
        )
    try:
        result = score(rules, ramsch, explain=True)
    except ScorepadError as exc:
        message = worded(exc.raw.replace("with ⟨losers⟩ NAME", "with a 'loser: NAME' line"))
        problems.append(
            Misplay(None, None, _("the hand cannot be scored: {message}").format(message=message))
        )
        result = None
    return HandReplay(
        rules,
        tuple(hand.players),
        hand.dealer,
        None,
        (),
        game,
        "Ramsch",
        (),
        tuple(tricks),
        tuple(problems),
        0,
        0,
        None,
        None,
        False,
        result,
        ramsch,
        points,
        knocks=hand.knocks,
    )


def _after_the_bury(hand: HandFile) -> dict[str, list[Card]]:
    """Every player's cards once the picker has taken the blind and buried."""
    picker = hand.picker
    assert picker is not None
    holding = {p: list(hand.hands[p]) for p in hand.players}
    if len(hand.bury) != len(hand.blind):
        raise HandFileError(
            hand.lines.get("bury", hand.lines.get("picker", 1)),
            _(
                "the bury has {len_bury} cards; the picker buries as many as the blind "
                "holds ({len_blind})"
            ).format(len_bury=len(hand.bury), len_blind=len(hand.blind)),
        )
    holding[picker] += hand.blind
    for card in hand.bury:
        if card not in holding[picker]:
            raise HandFileError(
                hand.lines.get("bury", 1),
                _("{picker} buried {card}, which was not in {picker}'s hand or the blind").format(
                    picker=picker, card=card_name(card)
                ),
            )
        holding[picker].remove(card)
    return holding


def _play(
    hand: HandFile,
    rules: Rules,
    game: Game,
    call: Call,
    holding: dict[str, list[Card]],
    problems: list[Misplay],
) -> list[Trick]:
    """Play the tricks in order, checking every card; returns the tricks."""
    players = hand.players
    assert hand.dealer is not None
    deal = rules.deal(len(players))
    if len(hand.tricks) != deal.cards:
        line = hand.tricks[-1][0] if hand.tricks else 1
        raise HandFileError(
            line,
            _("{len_tricks} tricks; a {len_players}-handed hand has {cards}").format(
                len_tricks=len(hand.tricks), len_players=len(players), cards=deal.cards
            ),
        )
    leader = players[(players.index(hand.dealer) + 1) % len(players)]
    tricks: list[Trick] = []
    called_led = False
    for number, (line, cards) in enumerate(hand.tricks, 1):
        if len(cards) != len(players):
            raise HandFileError(
                line,
                _(
                    "trick {number} has {len_cards} cards; every player plays one ({len_players})"
                ).format(number=number, len_cards=len(cards), len_players=len(players)),
            )
        order = players[players.index(leader) :] + players[: players.index(leader)]
        plays = list(zip(order, cards, strict=True))
        _check_held(plays, holding, players, number, line)
        first_of_called = (
            call.suit is not None and not called_led and game.suit_of(cards[0]) == call.suit
        )
        for index, (player, card) in enumerate(plays):
            play = Play(
                number,
                player,
                card,
                index == 0,
                holding[player],
                first_of_called,
                called_led,
                number == len(hand.tricks),
            )
            problems += play_problems(play, game.suit_of(cards[0]), game, call, hand.picker, rules)
            holding[player].remove(card)
        called_led = called_led or first_of_called
        win = trick_winner(game, call, cards, first_of_called)
        tricks.append(
            Trick(
                number,
                leader,
                tuple(plays),
                order[win],
                cards[win],
                game.why(cards),
                card_points(cards),
            )
        )
        leader = order[win]
    return tricks


def trick_winner(game: Game, call: Call, cards: Sequence[Card], first_of_called: bool) -> int:
    """The index of the card that wins a trick (the unknown card cannot win); the analysis's too."""
    contenders = list(range(len(cards)))
    if first_of_called and call.unknown in cards:  # it follows the called suit, cannot win
        contenders.remove(cards.index(call.unknown))
    return contenders[game.winner([cards[i] for i in contenders])]


def _check_held(
    plays: list[tuple[str, Card]],
    holding: Mapping[str, list[Card]],
    players: Sequence[str],
    number: int,
    line: int,
) -> None:
    for player, card in plays:
        if card not in holding[player]:
            owner = next((p for p in players if card in holding[p]), None)
            where = (
                _(" ({owner} holds it)").format(owner=owner)
                if owner
                else " (it was played or buried before)"
            )
            raise HandFileError(
                line,
                _(
                    "trick {number}: {player} plays {card}, which {player} does not "
                    "hold{where}; the cards go in the order played, the leader's first"
                ).format(number=number, player=player, card=card_name(card), where=where),
            )


def before_the_first_card(hand: HandFile, rules: Rules) -> tuple[Game, Call, dict[str, list[Card]]]:
    """The game, the call and the hands after the bury, as replay reads them (for the analysis);
    a Ramsch (no picker) has no call, `Call((), "Ramsch")`, and no bury."""
    if hand.picker is None:
        holding = {p: list(hand.hands[p]) for p in hand.players}
        return _game(hand, rules), Call((), "Ramsch"), holding
    holding = _after_the_bury(hand)
    return _game(hand, rules), _call(hand, rules, holding, []), holding


def play_problems(
    play: Play, led: Suit | str | None, game: Game, call: Call, picker: str | None, rules: Rules
) -> list[Misplay]:
    """What replay finds wrong with one card (a renege, the called-ace rules): the analysis's."""
    found = [] if led is None else _follow_problems(play, led, game, call, picker)
    return found + _called_rules(play, call, picker, game, rules)


def _follow_problems(
    play: Play, led: Suit | str, game: Game, call: Call, picker: str | None
) -> list[Misplay]:
    """A renege: not following the suit led while holding it (the picker's unknown card, face
    down until the called suit is first led, is not held for it)."""
    if play.leads:
        return []
    early = play.player == picker and not (play.first_of_called or play.called_led_before)
    aside = call.unknown if early else None
    following = [c for c in play.held if game.suit_of(c) == led and c != aside]
    is_unknown = play.player == picker and play.card == call.unknown and play.first_of_called
    if following and game.suit_of(play.card) != led and not is_unknown:
        return [
            Misplay(
                play.trick,
                play.player,
                _(
                    "{player} reneged: played {card} on a {suit_word} lead while holding {map}"
                ).format(
                    player=play.player,
                    card=card_name(play.card),
                    suit_word=suit_word(led),
                    map=", ".join(map(card_name, following)),
                ),
            )
        ]
    return []


def _called_rules(
    play: Play, call: Call, picker: str | None, game: Game, rules: Rules
) -> list[Misplay]:
    """The called-ace rules for one play: the partner keeps the called card until its suit is
    first led and plays it then; the picker keeps a card of the called suit until then."""
    called, suit = call.card, call.suit
    if called is None or suit is None:
        return []
    player, card, held = play.player, play.card, play.held
    found = []
    if called in held and player != picker:
        if play.first_of_called and card != called:
            run_away = (
                play.leads
                and rules.is_schafkopf
                and sum(1 for c in held if game.suit_of(c) == suit) >= 4
            )
            if not run_away:
                found.append(
                    _(
                        "{player} held the called {called} and played {card}: the called card "
                        "must be played when its suit is first led"
                    ).format(player=player, called=card_name(called), card=card_name(card))
                )
        elif (
            not play.first_of_called
            and not play.called_led_before
            and card == called
            and not play.last_trick
        ):
            found.append(
                _("{player} played the called {called} before its suit was led").format(
                    player=player, called=card_name(called)
                )
            )
    if player == picker:
        found += _picker_called_rules(play, call, game, rules.keep_called_suit)
    return [Misplay(play.trick, player, message) for message in found]


def _picker_called_rules(play: Play, call: Call, game: Game, keep: bool) -> list[str]:
    """The picker keeps a card of the called suit (or the unknown card) until it is first led
    (`keep_called_suit`), then plays it (or, having called a 10, the ace)."""
    called, unknown, suit = call.card, call.unknown, call.suit
    assert called is not None and suit is not None
    player, card, held = play.player, play.card, play.held
    found = []
    if not play.called_led_before and not play.first_of_called and not play.last_trick:
        keeps = [c for c in held if game.suit_of(c) == suit and c != card]
        if unknown is not None:
            if card == unknown:
                found.append(
                    _(
                        "{player} played the unknown card {unknown} before {suit_word}s were led"
                    ).format(player=player, unknown=card_name(unknown), suit_word=suit_word(suit))
                )
        elif keep and game.suit_of(card) == suit and not keeps:
            found.append(
                _(
                    "{player} played {card}, the last {suit_word}, before the called suit "
                    "was led: the picker must keep one"
                ).format(player=player, card=card_name(card), suit_word=suit_word(suit))
            )
    ace = Card(Rank.ACE, suit)
    if play.first_of_called and called.rank == Rank.TEN and ace in held and card != ace:
        found.append(
            _(
                "{player} called the {called} and must play the ace of {suit_word}s when "
                "{suit_word}s are first led, not {card}"
            ).format(
                player=player,
                called=card_name(called),
                suit_word=suit_word(suit),
                card=card_name(card),
            )
        )
    if play.first_of_called and unknown is not None and card != unknown:
        found.append(
            _(
                "{player} must play the unknown card {unknown} when {suit_word}s are "
                "first led, not {card}"
            ).format(
                player=player,
                unknown=card_name(unknown),
                suit_word=suit_word(suit),
                card=card_name(card),
            )
        )
    return found


def _runs(hand: HandFile, game: Game, side: set[str]) -> int:
    """Schafkopf runs: the top trumps held by one side without a break, from the top."""
    owner = {c: p for p, cards in hand.hands.items() for c in cards}
    # (only the trumps dealt count: a short deck has no 8 or 7)
    top = ["side" if owner[c] in side else "others" for c in game.trumps if c in owner]
    return next((i for i, holder in enumerate(top) if holder != top[0]), len(top))


def _picker_hand(outcome: HandReplay) -> PickerHand:
    rules = outcome.rules
    assert outcome.picker is not None
    game = outcome.game.name if rules.is_schafkopf else None
    alone = not outcome.partners and not rules.is_schafkopf
    return PickerHand(
        outcome.players,
        outcome.picker,
        outcome.points,
        dealer=outcome.dealer,
        partners=outcome.partners,
        alone=alone,
        tricks=outcome.side_tricks,
        crack=outcome.crack,
        recrack=outcome.recrack,
        game=game,
        runs=outcome.runs,
        knocks=outcome.knocks,
        stoss=outcome.stoss,
        called=outcome.called,
    )
