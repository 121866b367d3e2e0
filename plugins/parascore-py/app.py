"""The component entry point of the ``parascore`` metric: the ``parlance:plugin/metric`` export over
the pure logic in ``parascore.py``. Built with componentize-py (see ``host/build.rs``)."""

import gc

from componentize_py_types import Err, Ok
from wit_world import exports
from wit_world.exports.metric import MetricInfo, Pair, Score, ScoreInfo
from wit_world.imports.parlance_plugin_types import PluginError_InvalidInput

import parascore


class Metric(exports.Metric):
    def info(self) -> MetricInfo:
        return MetricInfo(
            name="ParaScore diversity (character edit distance)",
            scores=[
                ScoreInfo(
                    name="parascore_diversity",
                    description=(
                        "ParaScore's diversity term: the normalised character edit distance d mapped to "
                        "-1 + (1.35/0.35)·d below d = 0.35 and to 0.35 above; from -1 (unchanged) to 0.35."
                    ),
                    headline=True,
                ),
                ScoreInfo(
                    name="normalized_edit_distance",
                    description="Character Levenshtein distance divided by the longer text's length, 0-1.",
                    headline=False,
                ),
                ScoreInfo(
                    name="char_edit_distance",
                    description="Character Levenshtein distance: insertions, deletions and substitutions.",
                    headline=False,
                ),
            ],
        )

    def evaluate(self, pairs: list[Pair]) -> list:
        return [score(pair) for pair in pairs]


def score(pair: Pair):
    try:
        distance, d = parascore.normalized_distance(pair.original, pair.paraphrase)
    except parascore.Unscorable as e:
        return Err(PluginError_InvalidInput(str(e)))
    return Ok(
        [
            Score(name="parascore_diversity", value=parascore.diversity(d)),
            Score(name="normalized_edit_distance", value=d),
            Score(name="char_edit_distance", value=float(distance)),
        ]
    )


# Every call runs in a fresh instance made from the memory snapshot taken once this module is imported.
# Freezing moves the snapshot's objects out of the cycle collector's reach: otherwise a collection
# during a call walks the whole interpreter heap, and each page it writes to is copied. A metric's
# 100-pair call took about a fifth less time frozen; what a call allocates is still collected.
gc.freeze()
