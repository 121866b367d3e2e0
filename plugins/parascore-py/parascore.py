"""ParaScore's diversity term, in plain Python with no component bindings, so that it can be unit-tested
with any Python 3 and imported by the component entry point (``app.py``).

ParaScore (Shen et al., 2022, "Evaluation of Paraphrase Generation: ParaScore", arXiv:2202.08479)
rewards a paraphrase for moving away from its source by a normalised edit distance d,
mapped through a piecewise function with a threshold gamma:

    DS(d) = gamma                         if d >= gamma
    DS(d) = -1 + ((gamma + 1) / gamma) * d  otherwise

so an unchanged text scores -1, the score rises linearly to gamma at d = gamma, and anything more
different scores gamma: beyond the threshold, more change is not better. d is the character
Levenshtein distance divided by the length of the longer text, and gamma is 0.35. The definition is
the one of the authors' toolkit (github.com/shadowkiller33/parascore_toolkit, ``parascore/utils.py``,
functions ``edit`` and ``diverse``: ``nltk.edit_distance(x, y) / max(len(x), len(y))`` with unit
costs and no transpositions, thresh = 0.35), which this module reproduces without NLTK.

Characters are Unicode code points (Python ``str`` items), exactly as NLTK counts them. The texts
are compared as given: no case folding, no whitespace normalisation, as in the toolkit's English
mode.

Edge cases, where the toolkit raises ``ZeroDivisionError``:
- both texts empty: there is nothing to compare and d is 0/0, so the pair is reported as unscorable
  (``Unscorable``) rather than given an invented number;
- one text empty: every character of the other is an insertion, d = 1 and DS = gamma. The term is
  ParaScore's diversity bonus, which the paper adds to a semantic similarity that is about 0 for an
  empty paraphrase; on its own it does not say the paraphrase is good.
"""

GAMMA = 0.35


class Unscorable(ValueError):
    """A pair for which the diversity term is undefined."""


def levenshtein(a: str, b: str) -> int:
    """The Levenshtein distance (unit insertions, deletions and substitutions) of two strings.

    Bit-parallel, after Myers (1999) and Hyyrö (2001): the column of the dynamic-programming matrix
    is held as bit vectors of its vertical deltas, one bit per character of the shorter string, and
    Python's unbounded integers make any length one word. That is a handful of integer operations per
    character of the longer string instead of one interpreted step per matrix cell, which matters in
    an interpreter running inside WebAssembly.
    """
    if len(a) < len(b):
        a, b = b, a
    m = len(b)
    if m == 0:
        return len(a)
    # For each character of the shorter string, the positions where it occurs.
    positions: dict[str, int] = {}
    for i, ch in enumerate(b):
        positions[ch] = positions.get(ch, 0) | (1 << i)
    mask = (1 << m) - 1
    top = 1 << (m - 1)
    plus_v, minus_v, distance = mask, 0, m
    for ch in a:
        eq = positions.get(ch, 0)
        x_v = eq | minus_v
        x_h = (((eq & plus_v) + plus_v) ^ plus_v) | eq
        plus_h = minus_v | (~(x_h | plus_v) & mask)
        minus_h = plus_v & x_h
        if plus_h & top:
            distance += 1
        elif minus_h & top:
            distance -= 1
        # The first row of the matrix is 0, 1, 2, …: each step along the longer string costs one
        # insertion, which enters as a +1 horizontal delta at the bottom bit.
        plus_h = ((plus_h << 1) | 1) & mask
        minus_h = (minus_h << 1) & mask
        plus_v = minus_h | (~(x_v | plus_h) & mask)
        minus_v = plus_h & x_v
    return distance


def normalized_distance(original: str, paraphrase: str) -> tuple[int, float]:
    """The raw character edit distance and the distance divided by the longer length."""
    longer = max(len(original), len(paraphrase))
    if longer == 0:
        raise Unscorable("both texts are empty, so their normalised edit distance is undefined (0/0)")
    distance = levenshtein(original, paraphrase)
    return distance, distance / longer


def diversity(d: float, gamma: float = GAMMA) -> float:
    """ParaScore's piecewise diversity function of a normalised distance d in [0, 1]."""
    if d >= gamma:
        return gamma
    return -1.0 + ((gamma + 1.0) / gamma) * d
