#!/usr/bin/env python3
"""Reference values for the metric plugins, computed by the tools they must match.

The bleu and rouge plugins must agree with sacreBLEU 2.6.0 (sentence BLEU, chrF, TER)
and rouge-score 0.1.2 (ROUGE-1/2/L with and without the Porter stemmer) on every pair.
This script writes pairs with those tools' values in the format of
tests/data/metric-reference.jsonl, so the Rust tests can check thousands of fresh pairs:

    python3 -m venv .venv && .venv/bin/pip install -r scripts/requirements-reference.txt
    .venv/bin/python scripts/metric_reference.py generate --count 5000 --seed 7 --out /tmp/ref-7.jsonl
    PARLANCE_EXTRA_METRIC_REFERENCE=/tmp/ref-7.jsonl cargo test -p parlance-plugin-bleu -p parlance-plugin-rouge

`stems --count N --seed S --out FILE` writes `word<TAB>stem` lines from NLTK's PorterStemmer for
random English-like words, which textkit's Porter test reads from `PARLANCE_PORTER_REFERENCE`.

`check FILE` recomputes the values of an existing reference file with the installed tools and
reports the largest difference, which shows whether the file came from the versions claimed.

Key names follow the committed file: `rouge1` is rouge-score WITHOUT the stemmer and
`rouge1_stem` WITH it; bleu, chrf and ter are on sacreBLEU's 0-100 scale.
"""

import argparse
import json
import random
import sys

EXPECTED_VERSIONS = {"sacrebleu": "2.6.0", "rouge-score": "0.1.2", "nltk": "3.10.4"}

# Words chosen to exercise the Porter stemmer's rules and NLTK's irregular forms.
STEM_WORDS = """
caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled
sized hopping tanned falling hissing fizzed failing filing happy sky skies dying lying tying
news innings inning outings canning howe proceed exceed succeed relational conditional rational
valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization
predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti
sensibiliti triplicate formative formalize electriciti electrical hopeful goodness revival
allowance inference airliner gyroscopic adjustable defensible irritant replacement adjustment
dependent adoption homologou communism activate angulariti homologous effective bowdlerize
probate rate cease controll roll generously fully archaeology geology spied died flies dies
enjoy spy fly try quickly happily generalization organizational agreement abilities cries
crying hoped hoping traditional logically analogies ease easily eed ied ies ing yyyy syzygy
toy trees ivy oaten orrery private troubles falafel architecture sized filed fails
""".split()

PLAIN_WORDS = """
the a an cat dog fox quick brown lazy jumps over mat rug sat sits sitting is are was were be
being it it's isn't don't won't can't you we they she he what where when why how this that
weather today nice pleasant rain raining outside day code program programs python learn
learned learning fast fastest dark colored test example sentence phrase eval evaluation set
A-1 São Paulo Zürich café naïve résumé coöperate straße STRASSE 東京 Ünïcödé ÉCOLE
""".split()

PUNCT = list(".,;:!?'\"()[]{}<>/\\-–—…%$#@&*+=|~^`_") + ["--", "...", "?!", "'s", "n't", " ."]

ENTITIES = ["&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "&#39;", "&nbsp;", "&amp;amp;"]

UNICODE = [
    "東京", "北京市", "ß", "İstanbul", "ǅ", "Ω", "ΣΟΦΙΑ", "ΑΣ", "ﬁne", "Kelvin\u212a", "\u00c5ngstr\u00f6m",
    "e\u0301", "😀", "👍🏽", "\u00bd", "\u2163", "٣", "१२", "\u200b", "\u00ad", "\ufeff", "ｆｕｌｌ", "Ｗｉｄｅ",
    "한국어", "русский", "עברית", "عربى",
]

# Separators: ASCII whitespace plus characters Python's str.split() treats as whitespace
# (including the \x1c-\x1f separators that Unicode's White_Space property does not list).
SEPARATORS = [" ", " ", " ", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u2003", "\u3000", "\x1c", "\x1f",
              "\x0b", "\x0c", "\x85", "\u2028", ""]


def number(rng):
    kind = rng.randrange(7)
    if kind == 0:
        return str(rng.randrange(10000))
    if kind == 1:
        return f"{rng.randrange(100)}.{rng.randrange(100)}"
    if kind == 2:
        return f"{rng.randrange(1, 99)},{rng.randrange(1000):03d}"
    if kind == 3:
        return f"{rng.randrange(10)}-{rng.randrange(10)}"
    if kind == 4:
        return f"{rng.randrange(100)}.{rng.randrange(10)}-{rng.randrange(10)}"
    if kind == 5:
        return f"-{rng.randrange(100)}"
    return f"{rng.randrange(100)}%"


def token(rng, vocab):
    roll = rng.random()
    if roll < 0.55:
        word = rng.choice(vocab)
    elif roll < 0.68:
        word = rng.choice(PUNCT)
    elif roll < 0.78:
        word = number(rng)
    elif roll < 0.86:
        word = rng.choice(ENTITIES)
    elif roll < 0.93:
        word = rng.choice(UNICODE)
    else:
        # glued tokens: word+punct, word+word, number+word
        word = rng.choice(vocab) + rng.choice(PUNCT + [""]) + rng.choice(vocab + [number(rng)])
    case = rng.random()
    if case < 0.1:
        word = word.upper()
    elif case < 0.2:
        word = word.capitalize()
    return word


def sentence(rng, vocab, length):
    out = []
    for i in range(length):
        if i:
            out.append(rng.choice(SEPARATORS) if rng.random() < 0.3 else " ")
        out.append(token(rng, vocab))
    text = "".join(out)
    if rng.random() < 0.15:
        text = rng.choice(SEPARATORS) + text
    if rng.random() < 0.15:
        text = text + rng.choice(SEPARATORS)
    return text


def words_of(text):
    return text.split(" ")


def perturb(rng, text, vocab):
    """A paraphrase-like edit of `text`: swaps, moved blocks, drops, inserts, case changes."""
    words = words_of(text)
    edits = rng.randrange(0, max(2, len(words) // 2 + 2))
    for _ in range(edits):
        op = rng.randrange(6)
        if op == 0 and len(words) > 1:
            i, j = rng.randrange(len(words)), rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        elif op == 1 and len(words) > 2:
            # move a block: exercises TER's shifts
            start = rng.randrange(len(words))
            size = rng.randrange(1, min(12, len(words) - start) + 1)
            block = words[start:start + size]
            del words[start:start + size]
            target = rng.randrange(len(words) + 1)
            words[target:target] = block
        elif op == 2 and words:
            del words[rng.randrange(len(words))]
        elif op == 3:
            words.insert(rng.randrange(len(words) + 1), token(rng, vocab))
        elif op == 4 and words:
            i = rng.randrange(len(words))
            words[i] = words[i].upper() if rng.random() < 0.5 else words[i].lower()
        elif op == 5 and words:
            i = rng.randrange(len(words))
            words[i] = token(rng, vocab)
    return " ".join(words)


def length(rng):
    roll = rng.random()
    if roll < 0.5:
        return rng.randrange(1, 15)
    if roll < 0.8:
        return rng.randrange(15, 40)
    if roll < 0.95:
        return rng.randrange(40, 90)
    return rng.randrange(90, 200)


def make_pair(rng):
    # A small vocabulary per pair makes repeated words and shared n-grams common.
    vocab_size = rng.choice([3, 6, 12, 40, 400])
    vocab = rng.sample(STEM_WORDS + PLAIN_WORDS, min(vocab_size, len(STEM_WORDS) + len(PLAIN_WORDS)))
    mode = rng.random()
    if mode < 0.05:
        original, paraphrase = rng.choice([("", ""), ("", sentence(rng, vocab, length(rng))),
                                           (sentence(rng, vocab, length(rng)), ""),
                                           (" \t\n", sentence(rng, vocab, 3)), ("x", "x"),
                                           (sentence(rng, vocab, 3), "\u3000")])
    elif mode < 0.1:
        original = sentence(rng, vocab, length(rng))
        paraphrase = original
    elif mode < 0.15:
        # extreme length ratios: TER's beam widens past its default
        short, long_ = sentence(rng, vocab, rng.randrange(1, 4)), sentence(rng, vocab, rng.randrange(60, 220))
        original, paraphrase = (short, long_) if rng.random() < 0.5 else (long_, short)
    elif mode < 0.6:
        original = sentence(rng, vocab, length(rng))
        paraphrase = perturb(rng, original, vocab)
    else:
        original = sentence(rng, vocab, length(rng))
        paraphrase = sentence(rng, vocab, length(rng))
    return original, paraphrase


class Reference:
    def __init__(self):
        import nltk
        import sacrebleu
        from rouge_score import rouge_scorer

        versions = {
            "sacrebleu": sacrebleu.__version__,
            "rouge-score": _dist_version("rouge-score"),
            "nltk": nltk.__version__,
        }
        if versions != EXPECTED_VERSIONS:
            sys.exit(f"reference tools have versions {versions}, expected {EXPECTED_VERSIONS}")
        self.sacrebleu = sacrebleu
        types = ["rouge1", "rouge2", "rougeL"]
        self.plain = rouge_scorer.RougeScorer(types, use_stemmer=False)
        self.stem = rouge_scorer.RougeScorer(types, use_stemmer=True)

    def row(self, original, paraphrase):
        sb = self.sacrebleu
        row = {
            "original": original,
            "paraphrase": paraphrase,
            "bleu": sb.sentence_bleu(paraphrase, [original]).score,
            "chrf": sb.sentence_chrf(paraphrase, [original]).score,
            "ter": sb.sentence_ter(paraphrase, [original]).score,
        }
        for suffix, scorer in (("", self.plain), ("_stem", self.stem)):
            scores = scorer.score(original, paraphrase)
            for kind in ("rouge1", "rouge2", "rougeL"):
                s = scores[kind]
                row[kind + suffix] = {"p": s.precision, "r": s.recall, "f": s.fmeasure}
        return row


def _dist_version(name):
    from importlib.metadata import version

    return version(name)


def generate(args):
    rng = random.Random(args.seed)
    reference = Reference()
    out = open(args.out, "w", encoding="utf-8") if args.out != "-" else sys.stdout
    for _ in range(args.count):
        original, paraphrase = make_pair(rng)
        out.write(json.dumps(reference.row(original, paraphrase), ensure_ascii=False) + "\n")
    if out is not sys.stdout:
        out.close()


PREFIXES = ["", "", "", "un", "re", "in", "dis", "over", "pre", "non", "y", "a", "e", "o"]
ROOTS = """
act add agree allow ally analog apply art bake bat be bed big bless bowdler call care cat cease cede cent
child clean code conform control cook cry day decide depend die differ digit dog dry dye eat effect electr
enjoy fail fall feed feel file fit fizz fly form formal free fuse gene geo gyroscop happy hiss hop hope
house inning irrit judge know lie logic love mat meter motor move nation need news note oper organ pass
plaster play pony probe proceed rate relate roll run see sense sensit settle sing sit size sky spy star
stop succeed tan tie toy tradition tree triple trouble try value vietnam vile wax wed yawn zoo ease
""".split()
SUFFIXES = [
    "", "s", "es", "ies", "ed", "ied", "eed", "ing", "y", "ly", "li", "ally", "ally", "ation", "ational", "tional",
    "enci", "ence", "anci", "ance", "izer", "ize", "ization", "abli", "bli", "able", "ible", "alli", "entli", "eli",
    "ousli", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "fulli", "logi", "logy",
    "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "er", "ic", "ant", "ement", "ment", "ent",
    "sion", "tion", "ou", "ism", "ate", "iti", "ous", "ive", "e", "ll", "sses", "ss", "at", "bl", "iz", "yy",
]


def random_word(rng):
    roll = rng.random()
    if roll < 0.1:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyyyeaio") for _ in range(rng.randrange(1, 12)))
    word = rng.choice(PREFIXES) + rng.choice(ROOTS + STEM_WORDS)
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        word += rng.choice(SUFFIXES)
    if rng.random() < 0.05:
        word = word.upper() if rng.random() < 0.5 else word.capitalize()
    if rng.random() < 0.03:
        word += rng.choice(["é", "ß", "ï", "東", "1", "42"])
    return word


def stems(args):
    import nltk
    from nltk.stem.porter import PorterStemmer

    if nltk.__version__ != EXPECTED_VERSIONS["nltk"]:
        sys.exit(f"nltk is {nltk.__version__}, expected {EXPECTED_VERSIONS['nltk']}")

    rng = random.Random(args.seed)
    stemmer = PorterStemmer()
    with open(args.out, "w", encoding="utf-8") as out:
        for _ in range(args.count):
            word = random_word(rng)
            out.write(f"{word}\t{stemmer.stem(word)}\n")


def _values(row):
    for key, value in row.items():
        if isinstance(value, dict):
            for sub, v in value.items():
                yield f"{key}.{sub}", v
        elif key not in ("original", "paraphrase"):
            yield key, value


def check(args):
    reference = Reference()
    worst = {}
    mismatched = 0
    with open(args.file, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for row in rows:
        fresh = dict(_values(reference.row(row["original"], row["paraphrase"])))
        bad = False
        for key, value in _values(row):
            diff = abs(fresh[key] - value)
            worst[key] = max(worst.get(key, 0.0), diff)
            bad |= diff > (1e-6 if key in ("bleu", "chrf", "ter") else 1e-9)
        mismatched += bad
    print(f"{len(rows)} rows, {mismatched} differ from the installed tools")
    for key, diff in sorted(worst.items()):
        print(f"  {key:16} max abs diff {diff:.3g}")
    return 1 if mismatched else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="write N random pairs with reference values")
    gen.add_argument("--count", type=int, default=1000)
    gen.add_argument("--seed", type=int, required=True)
    gen.add_argument("--out", default="-", help="output path, or - for stdout")
    stm = sub.add_parser("stems", help="write random words with NLTK's Porter stems")
    stm.add_argument("--count", type=int, default=100000)
    stm.add_argument("--seed", type=int, required=True)
    stm.add_argument("--out", required=True)
    chk = sub.add_parser("check", help="recompute an existing reference file and compare")
    chk.add_argument("file")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args)
        return 0
    if args.command == "stems":
        stems(args)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
