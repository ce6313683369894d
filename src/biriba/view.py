"""Player views: what one seat may know of a deal, and nothing more.

``deal.view(seat)`` returns a :class:`PlayerView`: the seat's own hand, every meld, the
discard pile, the sizes of the other hands, of the stock and of the reserves, the reserve
state, the public score, the public history (a draw shows as ``draw``, never as the card),
and the cards each other player is publicly known to hold because they took them with the
discard pile. A view holds no reference to the deal, so nothing hidden can leak from it.
:meth:`~biriba.PlayerView.sample` deals the unknown cards at random into a full
:class:`~biriba.Deal` consistent with the view, for search bots.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

import attrs

from biriba.cards import Card
from biriba.melds import Meld
from biriba.moves import Move
from biriba.rules import RuleSet, full_pack
from biriba.scoring import DealScore, TeamScore

if TYPE_CHECKING:
    from biriba.deal import Deal, Phase

__all__ = ["PlayerView"]


@attrs.frozen
class PlayerView:
    """Everything one seat may know of a deal; build it with ``deal.view(seat)``."""

    #: The rule set.
    rules: RuleSet = attrs.field(repr=lambda r: repr(r.name))
    #: The seat whose view this is.
    seat: int
    #: The dealer's seat.
    dealer: int
    #: The phase of the turn.
    phase: Phase
    #: The seat to act, ``None`` once the deal is over.
    to_move: int | None
    #: The seat's own hand, sorted.
    hand: tuple[Card, ...]
    #: Every seat's number of cards.
    hand_sizes: tuple[int, ...]
    #: The number of cards in the stock.
    stock_size: int
    #: The discard pile, bottom to top (it is open, B4.1).
    discard_pile: tuple[Card, ...]
    #: Each team's melds.
    melds: tuple[tuple[Meld, ...], ...]
    #: How many reserve packets are left, and their size.
    reserves_left: int
    #: Whether each team has received its reserve (B5.1).
    reserve_received: tuple[bool, ...]
    #: By team, the seat holding a received but not activated reserve (B5.4), else None.
    unactivated: tuple[int | None, ...]
    #: Passes in a row so far (B4.4).
    passes: int
    #: The card taken this turn from a one-card pile, barred from the discard (B4.2).
    pile_card: Card | None
    #: The seat that closed (B6.1), else ``None``.
    closed_by: int | None
    #: By seat, the cards publicly known to be in that hand (the own seat: empty).
    known: tuple[tuple[Card, ...], ...]
    #: The public history: every move is public (a draw shows as ``draw``, never the card).
    history: tuple[Move, ...]
    _legal: tuple[Move, ...] | None = attrs.field(
        default=None, init=False, eq=False, repr=False, hash=False
    )

    # ------------------------------------------------------------------ derived
    @property
    def team(self) -> int:
        """The seat's team."""
        return self.seat % self.rules.teams

    def public_score(self) -> DealScore:
        """The score as far as it is public: every part of B8 but ``hands``, left at 0
        because the other hands are hidden."""
        rules = self.rules
        teams = []
        for team in range(rules.teams):
            melded = sum(m.points for m in self.melds[team])
            bonuses = sum(m.bonus for m in self.melds[team])
            if not self.reserve_received[team]:
                reserve = -rules.reserve_penalty
            elif self.unactivated[team] is not None:
                reserve = -rules.unactivated_reserve_penalty
            else:
                reserve = 0
            closed = self.closed_by is not None and self.closed_by % rules.teams == team
            closing = rules.closing_bonus if closed else 0
            teams.append(TeamScore(melded, bonuses, 0, closing, reserve))
        return DealScore(tuple(teams), self.to_move is None)

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves when this seat is to move (the deal's own), else ``()``.

        They depend only on what the seat knows, so any deal consistent with the view
        gives them; the answer is kept on the view.
        """
        if self.to_move != self.seat:
            return ()
        found = self._legal
        if found is None:
            found = self._find_legal_moves()
            object.__setattr__(self, "_legal", found)
        return found

    def _find_legal_moves(self) -> tuple[Move, ...]:
        from biriba.deal import Phase
        from biriba.engine import counts_of, engine_for

        rules = self.rules
        if rules.reserve_size < 5:
            # A small packet could hold nothing but the barred card: use real cards.
            return self._deal_from(list(self.unknown_cards())).legal_moves()
        # The moves depend on the reserve packet only through its size: any packet of
        # the right size gives them.
        team = self.team
        received = self.reserve_received[team]
        packet = None
        if not received and self.reserves_left:
            packet = full_pack(rules)[: rules.reserve_size]
        hand = counts_of(self.hand)
        melds = self.melds[team]
        engine = engine_for(rules)
        if self.phase is Phase.PLAY:
            key = (hand, melds, received, packet, self.pile_card)
            return engine.play_moves(key, len(self.hand)).moves
        stock_open = self.stock_size > rules.stock_end_remaining
        return engine.draw_moves(
            hand, len(self.hand), self.discard_pile, melds, received, packet, stock_open
        )

    # ------------------------------------------------------------------ data
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data; two deals that differ only in what the seat cannot know give
        equal dicts."""
        return {
            "rules": self.rules.name,
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "discard": [str(c) for c in self.discard_pile],
            "melds": [[str(m) for m in team] for team in self.melds],
            "reserves_left": self.reserves_left,
            "reserve_received": list(self.reserve_received),
            "unactivated": list(self.unactivated),
            "passes": self.passes,
            "pile_card": None if self.pile_card is None else str(self.pile_card),
            "closed_by": self.closed_by,
            "known": [[str(c) for c in k] for k in self.known],
            "history": [str(m) for m in self.history],
        }

    # ------------------------------------------------------------------ sampling
    def unknown_cards(self) -> tuple[Card, ...]:
        """The cards the seat cannot place: the pack less everything it sees or knows."""
        seen: Counter[Card] = Counter(self.hand)
        seen.update(self.discard_pile)
        for team in self.melds:
            for meld in team:
                seen.update(meld.cards)
        for cards in self.known:
            seen.update(cards)
        return tuple(sorted((Counter(full_pack(self.rules)) - seen).elements()))

    def sample(self, rng: random.Random) -> Deal:
        """A full deal consistent with this view: the same own hand, melds, pile, counts,
        known cards and public history, the unknown cards dealt uniformly at random over
        the other hands, the stock and the reserves.

        The sampled deal's history is the public history; it cannot be undone past its
        start.
        """
        if not isinstance(rng, random.Random):
            raise TypeError(f"sample needs a random.Random, got {type(rng).__name__}")
        pool = list(self.unknown_cards())
        rng.shuffle(pool)
        return self._deal_from(pool)

    def _deal_from(self, pool: list[Card]) -> Deal:
        """The deal consistent with the view whose unknown places get ``pool`` in order:
        the other hands by seat, then the stock, then the reserve packets."""
        from biriba.deal import Deal
        from biriba.engine import EMPTY_COUNTS, counts_of

        rules = self.rules
        deal = Deal._blank(rules, self.dealer)
        hands = []
        for seat in range(rules.players):
            if seat == self.seat:
                cards = list(self.hand)
            else:
                cards = list(self.known[seat])
                need = self.hand_sizes[seat] - len(cards)
                cards += pool[:need]
                del pool[:need]
            hands.append(cards)
        stock = pool[: self.stock_size]
        del pool[: self.stock_size]
        packets = []
        for _ in range(self.reserves_left):
            packets.append(tuple(pool[: rules.reserve_size]))
            del pool[: rules.reserve_size]
        assert not pool, "the view's counts do not add up to the pack"
        deal._hands = tuple(counts_of(h) for h in hands)
        deal._sizes = tuple(len(h) for h in hands)
        deal._known = tuple(counts_of(k) if k else EMPTY_COUNTS for k in self.known)
        deal._melds = self.melds
        deal._stock = stock
        deal._pile = list(self.discard_pile)
        deal._reserves = tuple(packets)
        deal._received = self.reserve_received
        deal._unactivated = self.unactivated
        deal._passes = self.passes
        deal._phase = self.phase
        deal._seat = self.to_move if self.to_move is not None else (self.closed_by or 0)
        deal._pile_card = self.pile_card
        deal._closed_by = self.closed_by
        deal._history = list(self.history)
        return deal


def view_of(deal: Deal, seat: int) -> PlayerView:
    """Build ``deal.view(seat)``."""
    from biriba.engine import cards_of

    rules = deal.rules
    known = tuple(() if s == seat else cards_of(deal._known[s]) for s in range(rules.players))
    return PlayerView(
        rules=rules,
        seat=seat,
        dealer=deal.dealer,
        phase=deal.phase,
        to_move=deal.to_move,
        hand=deal.hand(seat),
        hand_sizes=deal._sizes,
        stock_size=len(deal._stock),
        discard_pile=tuple(deal._pile),
        melds=deal._melds,
        reserves_left=len(deal._reserves),
        reserve_received=deal._received,
        unactivated=deal._unactivated,
        passes=deal._passes,
        pile_card=deal._pile_card,
        closed_by=deal._closed_by,
        known=known,
        history=tuple(deal._history),
    )
