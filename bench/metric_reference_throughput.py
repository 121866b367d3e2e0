#!/usr/bin/env python3
"""The Python baseline of the BLEU + chrF + ROUGE-L throughput benchmarks (issue 5): sacreBLEU 2.6.0's
`sentence_bleu` and `sentence_chrf`, and rouge-score 0.1.2's ROUGE-L F-measure with the Porter
stemmer, on the pairs of tests/data/metric-reference.jsonl repeated to --pairs. Single-threaded, as
these libraries are.

Prints one JSON object on stdout: pairs, seconds and pairs/s per repeat, and a checksum (the sum of
bleu + chrf + 100 x rougeL over all pairs) to compare with the project's.

Usage: metric_reference_throughput.py [--pairs 10000] [--repeats 1] [--data FILE]
"""

import argparse
import json
import os
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--data", default=os.path.join(REPO, "tests", "data", "metric-reference.jsonl"))
    args = parser.parse_args()

    import sacrebleu
    from rouge_score import rouge_scorer

    with open(args.data, encoding="utf-8") as f:
        reference = [json.loads(line) for line in f if line.strip()]
    pairs = [(r["original"], r["paraphrase"]) for r in reference]
    pairs = [pairs[i % len(pairs)] for i in range(args.pairs)]
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)

    seconds, checksum = [], 0.0
    for _ in range(args.repeats):
        started = time.perf_counter()
        total = 0.0
        for original, paraphrase in pairs:
            bleu = sacrebleu.sentence_bleu(paraphrase, [original]).score
            chrf = sacrebleu.sentence_chrf(paraphrase, [original]).score
            rouge_l = scorer.score(original, paraphrase)["rougeL"].fmeasure
            total += bleu + chrf + 100 * rouge_l
        seconds.append(time.perf_counter() - started)
        checksum = total
    report = {
        "implementation": f"sacrebleu {sacrebleu.__version__} + rouge-score (Python {sys.version.split()[0]})",
        "pairs": len(pairs),
        "seconds": seconds,
        "pairs_per_second": [len(pairs) / s for s in seconds],
        "checksum": checksum,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
