"""List the melds a hand holds, and what adding a card to a meld can give.

Run it with ``python examples/melds_from_a_hand.py``.
"""

from __future__ import annotations

from biriba import Card, Meld, enumerate_melds, parse_cards


def main() -> None:
    """Print the melds of a sample hand and the outcomes of a few additions."""
    hand = parse_cards("3H 4H 5H 7H JK 9C 9C 9S 2D")
    print("hand:", " ".join(map(str, hand)))
    for meld in enumerate_melds(hand):
        print(f"  {meld!s:<16} points {meld.points:>3}  clean {meld.is_clean}")
    meld = Meld.parse("4H 5H JK 7H")
    for text in ("6H", "3H", "2H", "JK"):
        results = meld.extensions(Card.parse(text))
        shown = ", ".join(str(r) for r in results) or "cannot be added"
        print(f"{meld} + {text}: {shown}")


if __name__ == "__main__":
    main()
