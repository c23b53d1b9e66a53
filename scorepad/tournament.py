"""A tournament: its settings, the draw of each round's tables, the standings and the payout.

The domain of a tournament director's desk, with no I/O: `tournament_store` reads and writes the
folder (DIR/tournament.toml and a session file per table) and hands this module plain values; each
table's night is an ordinary session, scored and checked by the session's own pass.

- The draw (`table_sizes`, `draw`): tables of the table size and, where the count of players
  does not divide, tables of one more where the dealer sits out, or of one fewer where the rules
  deal that many. Seats come from a random generator seeded by the tournament's seed and the
  round, so a draw is the same every time; of `DRAW_TRIES` draws it keeps the one in which the
  fewest pairs of players meet again.
- The standings (`standings`): every player's total over the rounds, ranked by the tie-breaks;
  players still level after them (`name` orders but never separates) share a place.
- The payout (`payout`): the pool, each place's share and each round's high score prize, in
  cents; tied players share the prizes of the places they hold, and what does not divide is
  named.
"""

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction
from itertools import combinations
from typing import NamedTuple

from .errors import ScorepadError
from .i18n import gettext as _
from .i18n import ngettext
from .placings import parse_placings, placings, ranking_text
from .rules import Rules
from .scoring import same_name

TIE_BREAKS = ("solos", "best-round", "last-round", "name")
"""What may break a tie on points, in the order the director lists them."""
DEFAULT_TIE_BREAKS = ("solos", "best-round", "name")
DEFAULT_PAYOUT = (Decimal(30), Decimal(15), Decimal(10), Decimal(10), Decimal(10))
DRAW_TRIES = 200  # draws tried for a round; the one with the fewest repeat pairings is kept
MAX_ROUNDS = 50
MAX_HANDS = 1000
MAX_PLAYERS = 2000
MAX_ENTRY = Decimal(1_000_000)
CENT = Decimal("0.01")
HUNDRED = Decimal(100)


class TournamentError(ScorepadError):
    """A tournament's settings, players, draw or tables are not acceptable."""


class Player(NamedTuple):
    """One entry: the round they were first drawn for, and the last (None: still playing)."""

    name: str
    joined: int = 1
    left: int | None = None

    def plays(self, round_number: int) -> bool:
        """Whether this player is drawn for the round."""
        return self.joined <= round_number and (self.left is None or round_number <= self.left)


Table = tuple[str, ...]  # the players at a table, in seat order (the last deals first)


class Tournament(NamedTuple):
    """A tournament as its tournament.toml holds it: settings, players and the rounds drawn."""

    name: str
    rules: Rules
    rounds: int
    hands: int  # the hands of a round, at every table
    table_size: int
    seed: int
    players: tuple[Player, ...]
    drawn: tuple[tuple[Table, ...], ...] = ()  # each round drawn: its tables
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    entry: Decimal | None = None  # the entry fee (None: no money)
    currency: str = "$"
    payout: tuple[Decimal, ...] = DEFAULT_PAYOUT  # each place's percent of the pool
    round_prize: Decimal = Decimal(0)  # percent of the pool to each round's high score
    house_share: Decimal = Decimal(0)  # percent of the entries kept by the house
    # league placings (`placings.py`): "" none; "default" the points by head count; or a
    # table's own, "3,1,0,-1,-4": each table's players ranked each round, ranked by them
    placings: str = ""

    @property
    def next_round(self) -> int:
        return len(self.drawn) + 1

    def player(self, name: str) -> Player | None:
        """The entry of that name (matched without regard to case), or None."""
        wanted = same_name(name)
        return next((p for p in self.players if same_name(p.name) == wanted), None)

    def playing(self, round_number: int) -> list[str]:
        """Who is drawn for the round, in the order they entered."""
        return [p.name for p in self.players if p.plays(round_number)]


# --- settings -----------------------------------------------------------------------------------


def check_placings(text: str) -> str:
    """League placings as a tournament keeps them: "" (none), "default" (the ranking points
    by head count) or a table's own, `3,1,0,-1,-4` (a ScorepadError says what is wrong)."""
    if text in ("", "default"):
        return text
    return ",".join(map(str, parse_placings(text)))


def parse_percents(text: str, what: str = "⟨payout⟩") -> tuple[Decimal, ...]:
    """`30,15,10` as percents of the pool, each above 0 and at most 100."""
    parts = [p.strip() for p in text.split(",")]
    return tuple(parse_percent(p, what, positive=True) for p in parts)


def parse_percent(text: str, what: str, positive: bool = False) -> Decimal:
    """A percent, 0 to 100 (above 0 if `positive`), at most two decimals."""
    number = _decimal(text, what, "a percent, e.g. 12.5")
    if (number <= 0 if positive else number < 0) or number > HUNDRED:
        low = "above 0" if positive else "0"
        raise TournamentError(
            _("{what} {text}: a percent is {low} to 100").format(what=what, text=text, low=low)
        )
    return number


def parse_money(text: str, what: str = "⟨entry⟩") -> Decimal:
    """An amount of money as typed (`10`, `12.50`), to the cent at most."""
    amount = _decimal(text, what, "an amount, e.g. 10 or 12.50")
    if amount > MAX_ENTRY:
        raise TournamentError(_("{what} {text}: more than a million").format(what=what, text=text))
    return amount


def _decimal(text: str, what: str, example: str) -> Decimal:
    raw = str(text).strip()
    whole, dot, part = raw.partition(".")
    if (
        len(raw) > 20
        or not raw.isascii()
        or not (whole or part)
        or (whole and not whole.isdigit())
        or (dot and not part.isdigit())
        or len(part) > 2
    ):
        raise TournamentError(
            _("{what} {text!r}: not {example} (two decimals at most)").format(
                what=what, text=str(text)[:40], example=example
            )
        )
    try:
        return Decimal(raw)
    except InvalidOperation:  # pragma: no cover - (the text is a number)
        raise TournamentError(
            _("{what} {text!r}: not {example}").format(what=what, text=text, example=example)
        ) from None


def parse_tie_breaks(text: str) -> tuple[str, ...]:
    """`solos,best-round,name`: each one of TIE_BREAKS, none twice."""
    items = tuple(t.strip() for t in text.split(",") if t.strip())
    for item in items:
        if item not in TIE_BREAKS:
            raise TournamentError(
                _("⟨tie_breaks⟩ {item!r}: not a tie-break; use {tie_breaks}").format(
                    item=item, tie_breaks=", ".join(TIE_BREAKS)
                )
            )
    if len(set(items)) != len(items):
        raise TournamentError(_("⟨tie_breaks⟩: a tie-break is listed twice"))
    return items


def check(t: Tournament) -> Tournament:
    """Check that the settings fit together (on `new`, and every time the file is read)."""
    if not t.name.strip():
        raise TournamentError(_("⟨name⟩: a tournament needs a name"))
    if not 1 <= t.rounds <= MAX_ROUNDS:
        raise TournamentError(
            _("⟨rounds⟩ {rounds}: 1 to {max_rounds} rounds").format(
                rounds=t.rounds, max_rounds=MAX_ROUNDS
            )
        )
    if not 1 <= t.hands <= MAX_HANDS:
        raise TournamentError(
            _("⟨hands⟩ {hands}: 1 to {max_hands} hands a round").format(
                hands=t.hands, max_hands=MAX_HANDS
            )
        )
    if dealt(t.rules, t.table_size) != t.table_size:
        counts = ", ".join(str(n) for n in sorted(t.rules.deals))
        raise TournamentError(
            _("⟨table_size⟩ {size}: {name} rules deal hands for {counts} players").format(
                size=t.table_size, name=t.rules.name, counts=counts
            )
            + (
                _(" (and at {size} the dealer sits out)").format(size=t.table_size)
                if dealt(t.rules, t.table_size) is not None
                else ""
            )
        )
    if t.rules.settlement != "zero-sum":
        raise TournamentError(
            _("⟨rules⟩ {name}: a race (settlement = race) has no points to rank by").format(
                name=t.rules.name
            )
        )
    allotted = sum(t.payout, Decimal(0)) + t.round_prize * t.rounds
    if allotted > HUNDRED:
        raise TournamentError(
            _(
                "⟨payout⟩: the places ({percent_text}) and the round prizes ({rounds} x "
                "{percent_text2}) come to {percent_text3} of the pool, more than all of "
                "it"
            ).format(
                percent_text=_percent_text(sum(t.payout, Decimal(0))),
                rounds=t.rounds,
                percent_text2=_percent_text(t.round_prize),
                percent_text3=_percent_text(allotted),
            )
        )
    if len(t.tie_breaks) != len(set(t.tie_breaks)) or not set(t.tie_breaks) <= set(TIE_BREAKS):
        raise TournamentError(
            _("⟨tie_breaks⟩: each of {tie_breaks}, once at most").format(
                tie_breaks=", ".join(TIE_BREAKS)
            )
        )
    seen: set[str] = set()
    for p in t.players:
        key = same_name(p.name)
        if key in seen:
            raise TournamentError(_("⟨players⟩: {name} is listed twice").format(name=p.name))
        seen.add(key)
    if len(t.players) > MAX_PLAYERS:
        raise TournamentError(
            _("⟨players⟩: at most {max_players} players").format(max_players=MAX_PLAYERS)
        )
    if len(t.drawn) > t.rounds:
        raise TournamentError(
            _("{len_drawn} rounds drawn, but the tournament has {rounds}").format(
                len_drawn=len(t.drawn), rounds=t.rounds
            )
        )
    return t


def _percent_text(value: Decimal) -> str:
    return f"{value.normalize():f}%"


# --- the draw -----------------------------------------------------------------------------------


def dealt(rules: Rules, seated: int) -> int | None:
    """How many play each hand at a table of `seated` (the dealer sits out where the rules say
    so), or None where the rules deal no hand for that table."""
    playing = seated - 1 if rules.sit_out == "dealer" and seated > rules.seats else seated
    return playing if rules.deal_for(playing) is not None else None


def table_sizes(count: int, size: int, rules: Rules) -> tuple[int, ...]:
    """The tables for `count` players: of `size`, and where that does not divide, tables of
    one more where the dealer sits out, or of one fewer where the rules deal that many: the
    fewest odd tables (of one more where both would do), the larger tables first. A
    TournamentError says why when neither fits."""
    bigger = dealt(rules, size + 1) == size
    smaller = size > 2 and dealt(rules, size - 1) == size - 1
    found: list[tuple[int, int, tuple[int, ...]]] = []  # (odd tables, smaller, the tables)
    if count and count % size == 0:
        found.append((0, 0, (size,) * (count // size)))
    for odd, fits in ((size + 1, bigger), (size - 1, smaller)):
        for n_odd in range(1, count // odd + 1) if fits else ():
            rest = count - n_odd * odd
            if rest % size == 0:
                found.append((n_odd, int(odd < size), (odd,) * n_odd + (size,) * (rest // size)))
                break
    if found:
        return tuple(sorted(min(found)[2], reverse=True))
    allowed = [size] + [size + 1] * int(bigger) + [size - 1] * int(smaller)
    why = []
    if not bigger:
        why.append(
            _(
                "a table of {bigger} needs the dealer to sit out: sit_out = dealer, seats = {size}"
            ).format(bigger=size + 1, size=size)
        )
    if not smaller:
        why.append(
            _("{name} rules deal no hand for {smaller}").format(name=rules.name, smaller=size - 1)
        )
    raise TournamentError(
        _("{count} players cannot be seated at tables of {sizes}").format(
            count=count, sizes=_(" or ").join(map(str, allowed))
        )
        + (f" ({'; '.join(why)})" if why else "")
        + _(": enter or remove a player (tournament players add|remove)")
    )


def met(drawn: Iterable[Sequence[Table]]) -> Counter[frozenset[str]]:
    """How often each pair of players has sat at one table in the rounds drawn."""
    pairs: Counter[frozenset[str]] = Counter()
    for tables in drawn:
        for table in tables:
            pairs.update(frozenset(pair) for pair in combinations(table, 2))
    return pairs


def repeats(tables: Sequence[Table], before: Mapping[frozenset[str], int]) -> int:
    """The pairs at these tables who have met before (a pair that met twice counts twice)."""
    return sum(
        before.get(frozenset(pair), 0) for table in tables for pair in combinations(table, 2)
    )


def draw(
    players: Sequence[str],
    sizes: Sequence[int],
    seed: int,
    round_number: int,
    before: Mapping[frozenset[str], int] | None = None,
    tries: int = DRAW_TRIES,
) -> tuple[tuple[Table, ...], int]:
    """Seat the players at tables of `sizes`, and the repeat pairings of that draw.

    The generator is seeded by the seed and the round (text seeds are hashed the same way on
    every machine and Python), over the players in the order of their names, so the draw
    depends only on who plays, the seed, the round and the rounds before. It draws `tries`
    times and keeps the first draw with the fewest pairs who met in the rounds before."""
    if sum(sizes) != len(players):
        raise TournamentError(
            _("{len_players} players for {sum} seats").format(
                len_players=len(players), sum=sum(sizes)
            )
        )  # (a bug)
    rng = random.Random(f"scorepad tournament {seed} round {round_number}")
    pool = sorted(players, key=lambda p: (same_name(p), p))
    before = before or {}
    best: tuple[tuple[Table, ...], int] | None = None
    for _try in range(max(1, tries)):
        order = pool[:]
        rng.shuffle(order)
        tables, at = [], 0
        for size in sizes:
            tables.append(tuple(order[at : at + size]))
            at += size
        found = repeats(tables, before)
        if best is None or found < best[1]:
            best = (tuple(tables), found)
            if found == 0:
                break
    assert best is not None
    return best


def next_draw(t: Tournament, tries: int = DRAW_TRIES) -> tuple[tuple[Table, ...], int]:
    """The next round's tables and their repeat pairings, or a TournamentError saying why
    the round cannot be drawn."""
    number = t.next_round
    if number > t.rounds:
        raise TournamentError(_("all {rounds} rounds are drawn").format(rounds=t.rounds))
    players = t.playing(number)
    sizes = table_sizes(len(players), t.table_size, t.rules)
    return draw(players, sizes, t.seed, number, met(t.drawn), tries)


def score_sheet(t: Tournament, round_number: int, table: int, seats: Table, path: str) -> str:
    """A printable score sheet for a table: its seats, the first dealer and a line per hand."""
    hand_word, dealer_word, game_word = _("Hand"), _("Dealer"), _("Game")
    number = max(4, len(hand_word))
    width = max(6, len(dealer_word), *(len(p) for p in seats))
    game = max(12, len(game_word))
    head = [
        hand_word.ljust(number),
        dealer_word.ljust(width),
        game_word.ljust(game),
        *(p.rjust(width) for p in seats),
    ]
    rule = ["-" * len(h) for h in head]
    lines = [
        ngettext(
            "{name}: round {round}, table {table} ({rules} rules, {hands} hand)",
            "{name}: round {round}, table {table} ({rules} rules, {hands} hands)",
            t.hands,
        ).format(name=t.name, round=round_number, table=table, rules=t.rules.name, hands=t.hands),
        _("Seats: {seats}. First dealer: {dealer}; the deal passes to the left.").format(
            seats=", ".join(seats), dealer=seats[-1]
        ),
        _("Record each hand with: scorepad -f {path} hand ...").format(path=path),
        "",
        "  ".join(head),
        "  ".join(rule),
    ]
    for hand in range(1, t.hands + 1):
        cells = [str(hand).rjust(number), "_" * width, "_" * game, *("_" * width for _s in seats)]
        lines.append("  ".join(cells))
    lines += [
        "",
        _("Total").ljust(number + 2 + width + 2 + game)
        + "  "
        + "  ".join("_" * width for _s in seats),
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"


# --- players ------------------------------------------------------------------------------------


def add_player(t: Tournament, name: str) -> Tournament:
    """A late entry: drawn from the next round on."""
    if t.player(name) is not None:
        raise TournamentError(_("{name} is already entered").format(name=name))
    if t.next_round > t.rounds:
        raise TournamentError(
            _("all {rounds} rounds are drawn: no round is left to enter").format(rounds=t.rounds)
        )
    return t._replace(players=(*t.players, Player(name, t.next_round)))


def remove_player(t: Tournament, name: str) -> tuple[Tournament, str]:
    """A dropout: not drawn from the next round on, keeping the points of the rounds played
    (and the entry paid). One who was never drawn leaves the list (and pays no entry). Returns
    the tournament and the player's name as entered."""
    found = t.player(name)
    if found is None:
        raise TournamentError(
            _("{name}: not entered; players: {playing}").format(
                name=name, playing=", ".join(t.playing(t.next_round))
            )
        )
    if found.left is not None:
        raise TournamentError(
            _("{name} already left after round {left}").format(name=found.name, left=found.left)
        )
    last = t.next_round - 1
    if found.joined > last:
        return t._replace(players=tuple(p for p in t.players if p is not found)), found.name
    players = tuple(p._replace(left=last) if p is found else p for p in t.players)
    return t._replace(players=players), found.name


# --- standings ----------------------------------------------------------------------------------


class TableResult(NamedTuple):
    """What a table's checked session file gives the standings."""

    round: int
    table: int
    totals: Mapping[str, int]  # each player's points at the table
    solos: Mapping[str, int]  # each player's solos (and picker-alone hands) won
    hands: int  # the hands recorded


class Standing(NamedTuple):
    """One player's line of the standings."""

    place: int
    player: str
    total: int
    rounds: Mapping[int, int | None]  # each round's points (None: not drawn for it)
    solos: int
    best_round: int | None
    last_round: int
    tied: bool  # level with another player after every tie-break: they share the place
    ranking: Fraction | None = None  # the ranking points by place at each table (placings)


def standings(
    t: Tournament, results: Iterable[TableResult], only: int | None = None
) -> list[Standing]:
    """Every entry ranked by points, then the tie-breaks (over the rounds drawn, or round
    `only`)."""
    numbers = [only] if only is not None else list(range(1, len(t.drawn) + 1))
    points: dict[str, dict[int, int | None]] = {
        p.name: dict.fromkeys(numbers, None) for p in t.players
    }
    solos: Counter[str] = Counter()
    ranking: dict[str, Fraction] = {}
    own = None if t.placings in ("", "default") else parse_placings(t.placings)
    for result in results:
        if result.round not in numbers:
            continue
        if t.placings:  # (each table's players ranked by their points at it)
            where = _("round {round}, table {table}").format(round=result.round, table=result.table)
            for player, placed in placings(where, result.totals, own).items():
                ranking[player] = ranking.get(player, Fraction(0)) + placed
        for player, value in result.totals.items():
            if player not in points:
                raise TournamentError(
                    _("round {round}, table {table}: {player} is not entered").format(
                        round=result.round, table=result.table, player=player
                    )
                )
            before = points[player][result.round]
            points[player][result.round] = (before or 0) + value
        solos.update(result.solos)
    last = numbers[-1] if numbers else None
    lines = []
    for name, rounds in points.items():
        played = [v for v in rounds.values() if v is not None]
        lines.append(
            (
                name,
                sum(played),
                rounds,
                solos[name],
                max(played) if played else None,
                (rounds.get(last) or 0) if last is not None else 0,
            )
        )

    def key(line: tuple[str, int, dict[int, int | None], int, int | None, int]) -> list[object]:
        name, total, _unused2, solo_count, best, last_points = line
        parts: list[object] = [-ranking.get(name, Fraction(0)), -total] if t.placings else [-total]
        for tie_break in t.tie_breaks:
            if tie_break == "solos":
                parts.append(-solo_count)
            elif tie_break == "best-round":
                parts.append(-(best if best is not None else -(10**12)))
            elif tie_break == "last-round":
                parts.append(-last_points)
        return parts

    lines.sort(key=lambda line: (key(line), same_name(line[0]), line[0]))
    out: list[Standing] = []
    keys = [key(line) for line in lines]
    for i, line in enumerate(lines):
        place = i + 1 if i == 0 or keys[i] != keys[i - 1] else out[-1].place
        tied = (i > 0 and keys[i] == keys[i - 1]) or (i + 1 < len(lines) and keys[i] == keys[i + 1])
        name, total, rounds, solo_count, best, last_points = line
        ranked = ranking.get(name, Fraction(0)) if t.placings else None
        out.append(
            Standing(place, name, total, rounds, solo_count, best, last_points, tied, ranked)
        )
    return out


# --- the payout ---------------------------------------------------------------------------------


class Award(NamedTuple):
    """A prize paid: a place (or places shared), or a round's high score."""

    what: str  # "1", "3-4" (places shared), or "round 2"
    percent: Decimal  # of the pool
    amount: Decimal  # the prize in all
    players: tuple[str, ...]
    each: Decimal  # what each player of it receives
    left: Decimal  # the cents that do not divide among them


class Payout(NamedTuple):
    """The money of a tournament: the pool, the awards and what is left."""

    entries: int
    entry: Decimal
    gross: Decimal  # entries x fee
    house: Decimal  # the house's share
    pool: Decimal  # what is paid out from
    awards: tuple[Award, ...]
    prizes: Mapping[str, Decimal]  # each player's money in all
    unallotted: Decimal  # the pool's percents not given to a place or a round
    undivided: Decimal  # cents that do not divide among tied players
    remainder: Decimal  # the pool less every prize paid (unallotted + undivided)


def _cents(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_DOWN)


def _share(amount: Decimal, players: int) -> tuple[Decimal, Decimal]:
    """Each of `players`' share of `amount`, in whole cents, and the cents left over."""
    each = _cents(amount / players)
    return each, amount - each * players


def payout(
    t: Tournament, ranked: Sequence[Standing], round_scores: Mapping[int, Mapping[str, int]]
) -> Payout:
    """Who receives what: the places' percents of the pool (tied players share the prizes of
    the places they hold) and each round's high score prize (shared by a tie), each in cents
    rounded down; the cents that do not divide and the percents not given are the remainder."""
    if t.entry is None:
        raise TournamentError(
            _(
                "no entry fee is set: give ⟨entry⟩ when the tournament starts (or entry "
                "in tournament.toml)"
            )
        )
    entries = len(t.players)
    gross = t.entry * entries
    house = (gross * t.house_share / HUNDRED).quantize(CENT, rounding=ROUND_HALF_UP)
    pool = gross - house
    place_prizes = [_cents(pool * pct / HUNDRED) for pct in t.payout]
    awards: list[Award] = []
    groups: list[list[Standing]] = []
    for line in ranked:
        if groups and groups[-1][0].place == line.place:
            groups[-1].append(line)
        else:
            groups.append([line])
    for group in groups:
        first = group[0].place
        held = range(first - 1, first - 1 + len(group))
        percent = sum((t.payout[i] for i in held if i < len(t.payout)), Decimal(0))
        amount = sum((place_prizes[i] for i in held if i < len(place_prizes)), Decimal(0))
        if not amount:
            continue
        each, left = _share(amount, len(group))
        what = str(first) if len(group) == 1 else f"{first}-{first + len(group) - 1}"
        awards.append(Award(what, percent, amount, tuple(s.player for s in group), each, left))
    if t.round_prize:
        prize = _cents(pool * t.round_prize / HUNDRED)
        for number in sorted(round_scores):
            scores = round_scores[number]
            if not scores:
                continue
            high = max(scores.values())
            winners = tuple(sorted((p for p in scores if scores[p] == high), key=same_name))
            each, left = _share(prize, len(winners))
            awards.append(Award(f"round {number}", t.round_prize, prize, winners, each, left))
    prizes: dict[str, Decimal] = {}
    for award in awards:
        for player in award.players:
            prizes[player] = prizes.get(player, Decimal(0)) + award.each
    paid = sum(prizes.values(), Decimal(0))
    undivided = sum((a.left for a in awards), Decimal(0))
    remainder = pool - paid
    return Payout(
        entries,
        t.entry,
        gross,
        house,
        pool,
        tuple(awards),
        prizes,
        remainder - undivided,
        undivided,
        remainder,
    )


# --- as data (the commands' JSON, and the hall's board) -----------------------------------------


def money_text(amount: Decimal) -> str:
    """An amount as JSON carries it: a string to the cent."""
    return f"{amount:.2f}"


def standings_record(
    t: Tournament, ranked: Sequence[Standing], only: int | None = None
) -> dict[str, object]:
    """The standings as data: stable keys for scripts."""
    return {
        "tournament": t.name,
        "rules": t.rules.name,
        "round": only,
        "rounds": t.rounds,
        "rounds_drawn": len(t.drawn),
        "tie_breaks": list(t.tie_breaks),
        "standings": [
            {
                "place": s.place,
                "player": s.player,
                "total": s.total,
                "rounds": {str(n): v for n, v in s.rounds.items()},
                "solos": s.solos,
                "best_round": s.best_round,
                "last_round": s.last_round,
                "tied": s.tied,
                **({} if s.ranking is None else {"ranking": ranking_number(s.ranking)}),
            }
            for s in ranked
        ],
        **({"placings": t.placings} if t.placings else {}),
    }


def ranking_number(value: Fraction) -> int | float:
    """Ranking points as JSON has them: whole, or to two places."""
    shown = ranking_text(value)
    return int(shown) if shown == shown.to_integral_value() else float(shown)


def payout_record(t: Tournament, paid: Payout, final: bool) -> dict[str, object]:
    """The payout as data: amounts as strings to the cent, percents as strings."""
    return {
        "tournament": t.name,
        "final": final,
        "currency": t.currency,
        "entries": paid.entries,
        "entry": money_text(paid.entry),
        "gross": money_text(paid.gross),
        "house_share": str(t.house_share),
        "house": money_text(paid.house),
        "pool": money_text(paid.pool),
        "awards": [
            {
                "award": a.what,
                "percent": str(a.percent),
                "amount": money_text(a.amount),
                "players": list(a.players),
                "each": money_text(a.each),
                "undivided": money_text(a.left),
            }
            for a in paid.awards
        ],
        "prizes": {p: money_text(v) for p, v in paid.prizes.items()},
        "unallotted": money_text(paid.unallotted),
        "undivided": money_text(paid.undivided),
        "remainder": money_text(paid.remainder),
    }
