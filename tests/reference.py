"""An independent reference for the legal moves of a position, written from the rules.

The engine builds its move lists from cached parts, bounds and a memoised look-ahead;
this module works them out the slow, obvious way, so that a test can compare the two at
every position of random deals (``tests/test_reference.py``). It shares no code with the
engine's move generation: from the library it uses only :meth:`Card.parse
<biriba.Card.parse>` and :meth:`Meld.from_cards <biriba.Meld.from_cards>`, the check
of one meld's cards (B3.1 to B3.7, Z3.2 to Z3.7), which ``tests/test_melds.py`` checks
against a brute force of its own. Everything about a turn is worked out here from a
position's data (:meth:`biriba.Deal.to_dict`): which new melds a hand can lay, where a
card can be added to a meld (B3.9 to B3.12, Z3.3), the cards kept after melding (B4.3),
the card a one-card pile bars (B4.2, Z4.4), the reserve or morto received when the hand
empties (B5.2 to B5.5, Z4.1), closing and going out (B6.1, Z4.2), the entry minimum
(V3), and whether the turn can still be finished after a move (B4.5), by an exhaustive
search over the rest of the turn.

A move is compared by its *effect*, not its text: ``("draw",)``, ``("take",)``,
``("pass",)``, ``("redraw",)``, ``("kozi", suit)``, ``("meld", cards)``, ``("add",
index, card, resulting cards)`` and ``("discard", card)``, cards as their texts and a
meld's cards in table order.

Cards are handled as their texts (``"7H"``, ``"JK"``); a hand is a sorted tuple of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from biriba import Card, InvalidMeldError, Meld, MeldKind, RuleSet

#: A move's effect (see the module's docstring).
Effect = tuple[Any, ...]

#: The letters of the ranks, by rank (1 and 14 both the ace).
RANK_LETTERS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"} | {
    r: str(r) for r in range(2, 10)
}
#: The rank of each letter (the ace 1).
RANKS = {letter: r for r, letter in RANK_LETTERS.items() if r != 14}
SUITS = "CDHS"
JOKER = "JK"


def rank(card: str) -> int:
    """A card's rank, 1 for an ace, 0 for a joker."""
    return 0 if card == JOKER else RANKS[card[0]]


def is_wild(card: str) -> bool:
    """Whether ``card`` can be a substitute: a joker or a two (B1.3, Z1.2)."""
    return card == JOKER or card[0] == "2"


def natural(r: int, suit: str) -> str:
    """The natural card of rank ``r`` (14: the high ace) of ``suit``."""
    return RANK_LETTERS[r] + suit


class Turn(NamedTuple):
    """What the rest of a play phase depends on."""

    #: The cards in hand, sorted.
    hand: tuple[str, ...]
    #: The team's melds, each in table order.
    melds: tuple[tuple[str, ...], ...]
    #: Whether the team has received its reserve (or morto).
    received: bool
    #: The packet the team would receive on emptying the hand, or ``None``.
    packet: tuple[str, ...] | None
    #: The card a one-card pile taken this turn bars from the discard (B4.2), or ``None``.
    pile_card: str | None


#: What a move that empties the hand into the reserve leads to: the reserve's cards are
#: face down, so that the seat's moves depend only on what it knows (a view lists the
#: deal's moves), and 11 cards always let the turn end; under an entry minimum the
#: minimum must be reached before (V3, settled in docs/rulesets.rst).
RECEIVED = "received"


class Reference:
    """The legal moves of positions under ``rules``, worked out from the rules alone."""

    #: The rule set fields whose values this reference follows; a rule set that changes
    #: any other field from its family's preset is refused.
    FOLLOWED = frozenset(
        {
            "name",
            "family",
            "players",
            "teams",
            "decks",
            "jokers",
            "twos_wild",
            "twos_always_wild",
            "hand_size",
            "reserve_size",
            "reserve_count",
            "up_card",
            "first_turn_redraw",
            "min_meld",
            "max_new_meld",
            "max_sequence",
            "max_substitutes",
            "groups",
            "ace_low",
            "ace_high",
            "high_ace_closes_meld",
            "biriba_size",
            "multi_substitute_biriba",
            "wild_melds",
            "keep_after_melding",
            "pile_restriction",
            "stock_exhausted",
            "stock_end_remaining",
            "pass_limit",
            "entry_minimum",
            "reserve_needs_biriba",
            "close_needs_biriba",
            "card_values",
            "joker_value",
            "sequence_bonus",
            "full_sequence_bonus",
            "group_bonus",
            "wild_meld_bonus",
            "bonus_suit_bonus",
            "full_bonus_suit_bonus",
            "closing_bonus",
            "reserve_penalty",
            "unactivated_reserve_penalty",
            "target",
            "target_strict",
        }
    )

    def __init__(self, rules: RuleSet) -> None:
        data: dict[str, Any] = rules.to_dict()
        unknown = set(data) - self.FOLLOWED
        if unknown:
            raise ValueError(f"the reference does not know the fields {sorted(unknown)}")
        if data["stock_end_remaining"] or not data["ace_low"] or not data["ace_high"]:
            raise ValueError("the reference plays to the end of the stock with both aces")
        if data["max_sequence"] != 13 or data["reserve_size"] < 3 or not data["twos_wild"]:
            raise ValueError(
                "the reference knows sequences of 13, packets of 3 or more and wild twos"
            )
        self.rules = rules
        self.teams: int = data["teams"]
        self.keep: int = data["keep_after_melding"]
        self.max_new: int = data["max_new_meld"] or 99
        self.max_substitutes: int | None = data["max_substitutes"]
        self.groups: bool = data["groups"]
        self.wild_melds: bool = data["wild_melds"]
        self.twos_always_wild: bool = data["twos_always_wild"]
        self.biriba_size: int = data["biriba_size"]
        self.multi_substitute_biriba: bool = data["multi_substitute_biriba"]
        self.high_ace_closes: bool = data["high_ace_closes_meld"]
        self.minimum: int = data["entry_minimum"]
        self.reserve_needs_biriba: bool = data["reserve_needs_biriba"]
        self.close_needs_biriba: bool = data["close_needs_biriba"]
        self.pile_restriction: str = data["pile_restriction"]
        self.morto_becomes_stock = data["stock_exhausted"] == "reserve-becomes-stock"
        self.kozi = data["bonus_suit_bonus"] is not None
        self.values: list[int] = data["card_values"]
        self.joker_value: int = data["joker_value"]
        self.min_meld: int = data["min_meld"]
        self._melds: dict[tuple[str, ...], tuple[tuple[str, ...], MeldKind] | None] = {}
        self._memo: dict[tuple[Any, ...], bool] = {}
        self._opening = False

    # ------------------------------------------------------------------ one meld
    def meld(self, cards: tuple[str, ...]) -> tuple[tuple[str, ...], MeldKind] | None:
        """The meld ``cards`` make in this order (its cards in table order, its kind), or
        ``None``: the library's check of one meld."""
        if cards not in self._melds:
            try:
                made = Meld.from_cards([Card.parse(c) for c in cards], self.rules)
            except InvalidMeldError:
                self._melds[cards] = None
            else:
                self._melds[cards] = (tuple(str(c) for c in made.cards), made.kind)
        return self._melds[cards]

    def kind(self, cards: tuple[str, ...]) -> MeldKind:
        """The kind of a meld on the table."""
        found = self.meld(cards)
        assert found is not None, cards
        return found[1]

    def points(self, card: str) -> int:
        """A card's value (B8.1, Z1.3, V3's count)."""
        return self.joker_value if card == JOKER else self.values[rank(card)]

    def sequence_ranks(self, cards: tuple[str, ...]) -> tuple[list[int], str]:
        """The rank each card of a sequence stands for (14 a high ace), and its suit."""
        anchors = (
            [(i, rank(c), c[1]) for i, c in enumerate(cards) if c != JOKER and rank(c) > 2]
            + [
                (i, 1 if i == 0 else 14, c[1])
                for i, c in enumerate(cards)
                if c != JOKER and rank(c) == 1
            ]
            + [(i, 2, c[1]) for i, c in enumerate(cards) if c != JOKER]
        )
        first, r, suit = anchors[0]
        return [r + j - first for j in range(len(cards))], suit

    def substitutes(self, cards: tuple[str, ...]) -> int:
        """How many cards of a meld act as substitutes (B3.4, B3.6, V7)."""
        if self.kind(cards) is not MeldKind.SEQUENCE:
            return sum(map(is_wild, cards))
        ranks, suit = self.sequence_ranks(cards)
        return sum(
            c == JOKER or (c[0] == "2" and (self.twos_always_wild or c[1] != suit or r != 2))
            for c, r in zip(cards, ranks, strict=True)
        )

    def is_biriba(self, cards: tuple[str, ...]) -> bool:
        """A biriba or canastra (B3.7, Z3.4, Z3.7, V7)."""
        if len(cards) < self.biriba_size:
            return False
        if self.kind(cards) is MeldKind.WILD:
            return True
        return self.substitutes(cards) <= 1 or self.multi_substitute_biriba

    def closed(self, cards: tuple[str, ...]) -> bool:
        """Whether a sequence ending in a high ace takes nothing more (Z3.3)."""
        if not self.high_ace_closes or self.kind(cards) is not MeldKind.SEQUENCE:
            return False
        return self.sequence_ranks(cards)[0][-1] == 14

    # ------------------------------------------------------------ what a hand can do
    def new_melds(self, hand: Counter[str]) -> set[tuple[str, ...]]:
        """Every new meld the cards ``hand`` can lay, in table order."""
        found: set[tuple[str, ...]] = set()
        wilds = sorted(c for c in hand if is_wild(c))
        if self.groups:
            by_rank: dict[int, list[str]] = {}
            for card in hand:
                if card != JOKER and rank(card) != 2:  # groups of twos: B3.5, Z3.7
                    by_rank.setdefault(rank(card), []).append(card)
            for same_rank in by_rank.values():
                for naturals in sub_multisets(same_rank, hand, 1, self.max_new):
                    room = self.max_new - len(naturals)
                    most = self.substitute_limit(len(naturals))
                    rest = hand - Counter(naturals)
                    for subs in sub_multisets(wilds, rest, 0, min(most, room)):
                        if len(naturals) + len(subs) >= self.min_meld:
                            made = self.meld(tuple(naturals + subs))
                            if made is not None and made[1] is MeldKind.GROUP:
                                found.add(made[0])
        for suit in SUITS:
            for low in range(1, 15):
                top = min(low + 12, 14, low + self.max_new - 1)
                for high in range(low + self.min_meld - 1, top + 1):
                    for cards in self.sequence_fills(hand, suit, low, high, wilds):
                        made = self.meld(cards)
                        if made is not None and made[1] is MeldKind.SEQUENCE:
                            found.add(made[0])
        if self.wild_melds:
            for only_wild in sub_multisets(wilds, hand, self.min_meld, self.max_new):
                made = self.meld(tuple(only_wild))
                if made is not None and made[1] is MeldKind.WILD:
                    found.add(made[0])
        return found

    def substitute_limit(self, naturals: int) -> int:
        """The most substitutes beside ``naturals`` natural cards (B3.3, Z3.4, V7)."""
        if self.max_substitutes is None:
            return naturals
        return min(self.max_substitutes, naturals)

    def sequence_fills(
        self, hand: Counter[str], suit: str, low: int, high: int, wilds: list[str]
    ) -> list[tuple[str, ...]]:
        """Every way the cards ``hand`` fill the ranks ``low`` to ``high`` of ``suit``,
        each rank with its natural or a substitute (the meld check decides the rest)."""
        if not any(hand[natural(r, suit)] for r in range(low, high + 1)):
            return []
        out: list[tuple[str, ...]] = []
        left = Counter(hand)
        cards: list[str] = []
        most = self.max_substitutes if self.max_substitutes is not None else high - low + 1

        def fill(r: int, subs: int, naturals: int) -> None:
            if r > high:
                if subs <= self.substitute_limit(naturals):
                    out.append(tuple(cards))
                return
            own = natural(r, suit)
            if left[own]:
                left[own] -= 1
                cards.append(own)
                fill(r + 1, subs, naturals + 1)
                cards.pop()
                left[own] += 1
            if subs < most:
                for wild in wilds:
                    if left[wild] and wild != own:
                        left[wild] -= 1
                        cards.append(wild)
                        fill(r + 1, subs + 1, naturals)
                        cards.pop()
                        left[wild] += 1

        fill(low, 0, 0)
        return out

    def additions(self, cards: tuple[str, ...], card: str) -> set[tuple[str, ...]]:
        """Every meld that adding ``card`` to the meld ``cards`` can give (B3.9 to
        B3.12, Z3.3 to Z3.5, Z3.7), in table order."""
        kind = self.kind(cards)
        if kind is not MeldKind.SEQUENCE:
            if kind is MeldKind.WILD and not is_wild(card):
                return set()
            made = self.meld((*cards, card))
            return {made[0]} if made is not None and made[1] is kind else set()
        if self.closed(cards):
            return set()
        tries = [(card, *cards), (*cards, card)]  # at either end
        ranks, suit = self.sequence_ranks(cards)
        if card != JOKER and card[1] == suit and not (card[0] == "2" and self.twos_always_wild):
            # B3.9: the natural takes the place of the substitute standing for its rank,
            # which moves to one end.
            for i, (held, r) in enumerate(zip(cards, ranks, strict=True)):
                acting = held == JOKER or (
                    held[0] == "2" and (self.twos_always_wild or held[1] != suit or r != 2)
                )
                if acting and (rank(card) == r or (rank(card) == 1 and r == 14)):
                    placed = (*cards[:i], card, *cards[i + 1 :])
                    tries += [(held, *placed), (*placed, held)]
        found = set()
        for attempt in tries:
            made = self.meld(attempt)
            if made is not None and made[1] is MeldKind.SEQUENCE:
                found.add(made[0])
        return found

    # ------------------------------------------------------------- the rest of a turn
    def can_receive(self, turn: Turn) -> bool:
        """Whether emptying the hand now receives a packet (B5.2, B5.5, V4, Z4.1)."""
        if turn.received or turn.packet is None:
            return False
        return not self.reserve_needs_biriba or any(map(self.is_biriba, turn.melds))

    def can_close(self, turn: Turn) -> bool:
        """Whether discarding the last card closes or goes out (B6.1, Z4.2)."""
        return turn.received and (
            not self.close_needs_biriba or any(map(self.is_biriba, turn.melds))
        )

    def minimum_reached(self, melds: tuple[tuple[str, ...], ...]) -> bool:
        """V3: whether the team's melds, all laid this turn in its opening turn, reach the
        entry minimum (no meld at all: it need not meld)."""
        if not (self._opening and self.minimum and melds):
            return True
        return sum(self.points(c) for cards in melds for c in cards) >= self.minimum

    def discards(self, turn: Turn) -> list[str]:
        """The cards that may end the turn (B4.1, B4.2, B4.3, B5.4, B6.1, V3, V7)."""
        size = len(turn.hand)
        if not size or not self.minimum_reached(turn.melds):
            return []
        if size < self.keep and not (
            size == 1 and (self.can_receive(turn) or self.can_close(turn))
        ):
            return []
        barred = turn.pile_card if self.pile_restriction == "no-discard-back" else None
        return [c for c in sorted(set(turn.hand)) if c != barred]

    def steps(self, turn: Turn) -> Iterator[tuple[Effect, Turn | str | None]]:
        """Every new meld and addition of ``turn``, with what follows it: the next turn,
        :data:`RECEIVED`, or ``None`` where it empties the hand with nothing to receive."""
        hand = Counter(turn.hand)
        for cards in sorted(self.new_melds(hand)):
            yield ("meld", cards), self.after(turn, cards, None, cards)
        for index, meld in enumerate(turn.melds):
            for card in sorted(hand):
                for result in sorted(self.additions(meld, card)):
                    yield ("add", index, card, result), self.after(turn, (card,), index, result)

    def after(
        self, turn: Turn, used: tuple[str, ...], index: int | None, result: tuple[str, ...]
    ) -> Turn | str | None:
        """The turn once ``used`` leaves the hand, making ``result`` the meld at ``index``
        (``None``: a new meld)."""
        hand = list(turn.hand)
        for card in used:
            hand.remove(card)
        if index is None:
            melds = (*turn.melds, result)
        else:
            melds = (*turn.melds[:index], result, *turn.melds[index + 1 :])
        following = turn._replace(hand=tuple(hand), melds=melds)
        if hand:
            return following
        if not self.can_receive(following):  # B4.3, B5.2, Z4.1
            return None
        return RECEIVED if self.minimum_reached(melds) else None

    def can_finish(self, turn: Turn | str) -> bool:
        """Whether the turn can still end legally (B4.5)."""
        if turn == RECEIVED:
            return True
        assert isinstance(turn, Turn)
        key = (turn.hand, tuple(sorted(turn.melds)), turn.received, turn.packet, turn.pile_card)
        if key in self._memo:
            return self._memo[key]
        answer = bool(self.discards(turn))
        if not answer and self.reachable(turn):
            answer = any(
                following is not None and self.can_finish(following)
                for _, following in self.steps(turn)
            )
        self._memo[key] = answer
        return answer

    def reachable(self, turn: Turn) -> bool:
        """V3: whether every card in hand laid would reach the minimum (a bound that only
        spares the search)."""
        if not (self._opening and self.minimum and turn.melds):
            return True
        laid = sum(self.points(c) for cards in turn.melds for c in cards)
        return laid + sum(max(0, self.points(c)) for c in turn.hand) >= self.minimum

    # ------------------------------------------------------------------- a position
    def legal_effects(
        self, data: Mapping[str, Any], opening: bool, pile_card: str | None
    ) -> set[Effect]:
        """The effects of the legal moves of the position ``data`` (:meth:`Deal.to_dict
        <biriba.Deal.to_dict>`). ``opening`` (V3) and ``pile_card`` (B4.2) are the
        caller's own account of the turn, in the play phase."""
        self._memo = {}
        seat = data["to_move"]
        team = seat % self.teams
        hand = tuple(sorted(data["hands"][seat]))
        melds = tuple(tuple(text.split()) for text in data["melds"][team])
        received = bool(data["reserve_received"][team])
        reserves = [tuple(packet) for packet in data["reserves"]]
        stock, pile = list(data["stock"]), list(data["discard"])
        packet = reserves[0] if reserves and not received else None
        effects: set[Effect] = set()
        if data["phase"] == "draw":
            if self.kozi and data.get("bonus_suit") is None:
                return {("kozi", suit) for suit in SUITS}  # V1
            self._opening = not melds
            if stock:  # B4.1; Z4.3: the last stock card drawn, the next morto is the stock
                next_packet = packet
                if self.morto_becomes_stock and len(stock) == 1 and reserves:
                    next_packet = reserves[1] if len(reserves) > 1 and not received else None
                drawn = Turn(tuple(sorted((*hand, stock[-1]))), melds, received, next_packet, None)
                if self.can_finish(drawn):
                    effects.add(("draw",))
            else:  # B4.4, Z4.3
                effects.add(("pass",))
            single = len(pile) == 1
            if pile and not (
                self.pile_restriction == "no-take-with-one-card" and single and len(hand) == 1
            ):  # B4.1, Z4.4
                barred = pile[0] if single else None  # B4.2
                taken = Turn(tuple(sorted((*hand, *pile))), melds, received, packet, barred)
                if self.can_finish(taken):
                    effects.add(("take",))
            return effects
        self._opening = opening
        turn = Turn(hand, melds, received, packet, pile_card)
        effects.update(("discard", card) for card in self.discards(turn))
        for effect, following in self.steps(turn):
            if following is not None and self.can_finish(following):
                effects.add(effect)
        if data.get("redraw"):  # Z2.2: the card drawn goes up, the next comes in
            swapped = list(hand)
            swapped.remove(data["redraw"])
            again = Turn(tuple(sorted((*swapped, stock[-1]))), melds, received, packet, None)
            if self.can_finish(again):
                effects.add(("redraw",))
        return effects


def sub_multisets(
    distinct: list[str], counts: Counter[str], least: int, most: int
) -> list[list[str]]:
    """Every sub-multiset of the cards ``distinct``, each at most ``counts[card]`` times,
    of ``least`` to ``most`` cards, as sorted lists."""
    kinds = sorted(set(distinct))
    out: list[list[str]] = []
    chosen: list[str] = []

    def choose(i: int) -> None:
        if i == len(kinds):
            if len(chosen) >= least:
                out.append(list(chosen))
            return
        card = kinds[i]
        for n in range(counts[card] + 1):
            if len(chosen) + n > most:
                break
            chosen.extend([card] * n)
            choose(i + 1)
            del chosen[len(chosen) - n :]

    choose(0)
    return out
