"""A short learning loop on the fixed action ids: REINFORCE over the kinds of action.

The policy keeps one preference for each kind of action id of
:func:`biriba.encoding.codec_for` (draw, take, pass, discard, meld, add) and plays the
softmax of those preferences over the legal ids (the mask). Team 0 learns from the deal's
reward (:func:`biriba.encoding.team_returns`) against random play, then the learnt
policy and the untrained one are compared on the same fresh deals. It needs nothing but
the library and runs offline in well under a minute; a real agent would feed
:func:`biriba.encoding.observe` to a network instead of keeping six numbers.

Run ``python examples/learn_preferences.py [--deals N] [--test N]``.
"""

from __future__ import annotations

import argparse
import math
import random

from biriba import Deal
from biriba.encoding import ActionCodec, codec_for, team_returns

KINDS = ("draw", "take", "pass", "discard", "meld", "add")


def kind(codec: ActionCodec, action: int) -> int:
    """The kind of an id, an index into :data:`KINDS`, read from the codec's layout."""
    if action < codec.discard_base:
        return action  # draw, take, pass
    if action < codec.meld_base:
        return 3
    return 4 if action < codec.add_base else 5


def policy(prefs: list[float], kinds: list[int]) -> list[float]:
    """The softmax of the preferences of the legal ids' kinds."""
    weights = [math.exp(prefs[k]) for k in kinds]
    total = sum(weights)
    return [w / total for w in weights]


def play(prefs: list[float], seed: int, rate: float = 0.0, baseline: float = 0.0) -> float:
    """One deal, team 0 by the preferences, team 1 at random. With ``rate`` > 0, move the
    preferences along the gradient of the chosen ids' log-probabilities times the reward
    above ``baseline``. Returns team 0's reward."""
    deal = Deal.new(seed=seed)
    codec = codec_for(deal.rules)
    rng = random.Random(seed)
    grad = [0.0] * len(KINDS)
    while not deal.is_over:
        legal = codec.legal_ids(deal)
        if deal.to_move is not None and deal.to_move % 2 == 0:
            kinds = [kind(codec, a) for a in legal]
            probs = policy(prefs, kinds)
            i = rng.choices(range(len(legal)), probs)[0]
            action = legal[i]
            grad[kinds[i]] += 1
            for k, p in zip(kinds, probs, strict=True):
                grad[k] -= p
        else:
            action = rng.choice(legal)
        deal.play(codec.decode(action, deal))
    reward = team_returns(deal)[0]
    for k in range(len(KINDS)):
        prefs[k] += rate * (reward - baseline) * grad[k]
    return reward


def main(argv: list[str] | None = None) -> int:
    """Train, then compare the learnt preferences with none on the same fresh deals."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=150, help="training deals")
    parser.add_argument("--test", type=int, default=60, help="deals to compare on")
    args = parser.parse_args(argv)
    prefs = [0.0] * len(KINDS)
    baseline = 0.0
    for seed in range(args.deals):
        reward = play(prefs, seed, rate=0.01, baseline=baseline)
        baseline += 0.1 * (reward - baseline)
    seeds = range(10_000, 10_000 + args.test)
    before = sum(play([0.0] * len(KINDS), s) for s in seeds) / args.test
    after = sum(play(prefs, s) for s in seeds) / args.test
    print(f"{codec_for().size} action ids; {args.deals} training deals")
    print("preferences: " + ", ".join(f"{k} {p:+.2f}" for k, p in zip(KINDS, prefs, strict=True)))
    print(f"team 0's mean reward on {args.test} new deals: {before:+.3f} before, ", end="")
    print(f"{after:+.3f} after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
