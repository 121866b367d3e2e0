"""`{{name}}`: a Parlance metric in Python. It scores each pair by the length of the paraphrase per
character of the original; put your own measure in `score`. `evaluate` gets the whole batch, so work
shared by all pairs (a model, a table) is done once per call."""

from componentize_py_types import Err, Ok
from wit_world import exports
from wit_world.exports.metric import MetricInfo, Pair, Score, ScoreInfo
from wit_world.imports.parlance_plugin_types import PluginError_InvalidInput

SCORE = "{{ident}}_length_ratio"


class Metric(exports.Metric):
    def info(self) -> MetricInfo:
        return MetricInfo(
            name="{{name}}",
            scores=[ScoreInfo(name=SCORE, description="Characters in the paraphrase per character of the original.", headline=True)],
        )

    def evaluate(self, pairs: list[Pair]) -> list:
        return [score(pair) for pair in pairs]


def score(pair: Pair):
    if not pair.original:
        return Err(PluginError_InvalidInput("the original is empty"))
    return Ok([Score(name=SCORE, value=len(pair.paraphrase) / len(pair.original))])
