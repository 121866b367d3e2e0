"""Unit tests of the pure ParaScore logic: ``python3 -m unittest`` in this directory."""

import random
import unittest

import parascore


def reference_levenshtein(a: str, b: str) -> int:
    """The textbook dynamic programme, to check the bit-parallel version against."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


class LevenshteinTest(unittest.TestCase):
    def test_known_values(self):
        self.assertEqual(parascore.levenshtein("kitten", "sitting"), 3)
        self.assertEqual(parascore.levenshtein("flaw", "lawn"), 2)
        self.assertEqual(parascore.levenshtein("", "abc"), 3)
        self.assertEqual(parascore.levenshtein("abc", ""), 3)
        self.assertEqual(parascore.levenshtein("same", "same"), 0)
        # Code points, not bytes: one substitution.
        self.assertEqual(parascore.levenshtein("café", "cafe"), 1)
        # Transpositions cost two, as in NLTK's default.
        self.assertEqual(parascore.levenshtein("ab", "ba"), 2)

    def test_matches_the_dynamic_programme(self):
        rng = random.Random(7)
        for _ in range(800):
            alphabet = rng.choice(["ab", "abc", "abcdefgh ", "aé🙂 x"])
            a = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 70)))
            b = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 70)))
            self.assertEqual(parascore.levenshtein(a, b), reference_levenshtein(a, b), (a, b))

    def test_long_texts(self):
        rng = random.Random(11)
        a = "".join(rng.choice("abcde ") for _ in range(700))
        b = "".join(rng.choice("abcde ") for _ in range(650))
        self.assertEqual(parascore.levenshtein(a, b), reference_levenshtein(a, b))


class DiversityTest(unittest.TestCase):
    def test_piecewise_function(self):
        self.assertAlmostEqual(parascore.diversity(0.0), -1.0)
        self.assertAlmostEqual(parascore.diversity(0.35), 0.35)
        self.assertAlmostEqual(parascore.diversity(0.9), 0.35)
        self.assertAlmostEqual(parascore.diversity(0.1), -1.0 + (1.35 / 0.35) * 0.1)
        # Continuous at the threshold.
        self.assertAlmostEqual(parascore.diversity(0.35 - 1e-12), 0.35, places=9)

    def test_edge_cases(self):
        with self.assertRaises(parascore.Unscorable):
            parascore.normalized_distance("", "")
        self.assertEqual(parascore.normalized_distance("", "new"), (3, 1.0))
        self.assertEqual(parascore.normalized_distance("old", ""), (3, 1.0))
        self.assertEqual(parascore.normalized_distance("kitten", "sitting"), (3, 3 / 7))


if __name__ == "__main__":
    unittest.main()
