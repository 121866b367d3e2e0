#!/usr/bin/env python3
"""Builds the offline paraphraser's embedded lexicon from WordNet 3.0.

Reads Debian's `wordnet-base` files (data.*, index.*, cntlist.rev, *.exc) from /usr/share/wordnet
and writes into `plugins/offline/data/` (run it again after changing a threshold or a list here):

* `lexicon.txt`: one line per lemma, sorted bytewise so that the plugin can binary-search the
  embedded text without parsing it. A line is

      lemma[!] ENTRY [ENTRY ...]

  where `!` marks a lemma that WordNet also has as a capitalised name (a person, a place, a month:
  "Mark", "Stone"), so that a capitalised occurrence may be one, and each ENTRY describes one
  part of speech, with no spaces inside:

      P WEIGHT [=Q CAND,CAND,...] [^HYPER]

  `P` is `n`, `v`, `a` or `r`; `WEIGHT` is the lemma's SemCor tag count in that part of speech
  (the evidence for the part of speech); `Q` is a digit 1-9, the confidence of the best
  replacement; the replacements follow, best first; `^HYPER` is a single-word hypernym of the
  dominant noun sense, which the plugin no longer uses (a more general noun changed the meaning too
  much: "birds" -> "vertebrates"). A lemma is kept when it has a
  replacement or a hypernym, or when it was ever tagged (its weight then settles which reading of
  a form like "leaves" dominates).
* `exceptions.txt` (`inflected base pos`) and `inflections.txt` (`base pos inflected`): WordNet's
  irregular forms, single plain words only, sorted for lemmatising and for re-inflecting.
* `stopwords.txt`: the function words below, which are never replaced.
* `WORDNET-LICENSE`: the licence the data is distributed under.

How replacements are chosen (see `candidates`): a replacement must share the word's most
frequent sense; the senses they share must cover at least half of the word's uses (SemCor counts,
smoothed); the replacement must itself be read in a shared sense a fair share of the time, be
common (tag count and use in WordNet's own glosses), be a lowercase single plain word that is not
a function word, an offensive word, a spelling variant or a derivation of the word, and agree
with it in looking inflected or not; and the pair must not be on the hand-checked reject list.
For adjectives, the head of a satellite's cluster counts as a near-synonym ("quick" -> "fast").

Usage: build_lexicon.py [--wordnet DIR] [--copyright FILE] [--out DIR] [--explain WORD ...]
"""

import argparse
import math
import os
import re
import sys
from collections import defaultdict

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
NAME_LEXFILES = {15, 18}  # noun.location, noun.person
SS_TYPE_NUM = {"n": 1, "v": 2, "a": 3, "r": 4, "s": 5}

# Words the plugin must never replace nor insert: they carry grammar, not content, or WordNet
# knows them only in a rare content sense ("I" as iodine, "can" as a tin, "will" as a testament).
FUNCTION_WORDS = set(
    """
    a about above across after afterwards again against ago ahead all almost alone along already
    also although always am among amongst an and another any anybody anyhow anyone anything anyway
    anywhere are around as aside at away back be became because become becomes been before
    beforehand behind being below beside besides between beyond both but by can cannot could
    dare did do does doing done down during each either else elsewhere enough etc even ever every
    everybody everyone everything everywhere except few fewer first for former formerly from
    further furthermore had has have having he hence her here hers herself him himself his how
    however i if in indeed inside instead into is it its itself just last latter least less let
    like likely many may me meanwhile might mine more moreover most mostly much must my myself
    near nearly neither never nevertheless next no nobody none noone nor not nothing now nowhere
    of off often on once one only onto or other others otherwise ought our ours ourselves out
    outside over own past per perhaps please plus quite rather round same second seem
    seemed seeming seems several shall she should since so some somebody somehow someone
    something sometime sometimes somewhere still such than that the their theirs them themselves
    then thence there thereafter thereby therefore therein these they third this those though
    through throughout thru thus till to together too toward towards under underneath unless
    unlike until up upon us very via was we well were what whatever when whence whenever where
    whereas wherever whether which while whither who whoever whole whom whose why will with
    within without would yet you your yours yourself yourselves yes no not okay ok oh ah hey
    zero two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
    hundred thousand million billion trillion dozen half twice fourth fifth sixth seventh eighth
    ninth tenth get got gets getting gotten make makes made making go goes went gone going
    say says said saying thing things way ways lot lots kind sort type mr mrs ms dr st vs
    ago amid amidst versus whilst thereof whereby upward downward mere merely
    today tomorrow yesterday tonight does doing did has had having is was were been being am are
    gets getting makes making goes says saying ones others sir madam thanks little
    """.split()
)

# Replacements a reader would find offensive or comic out of place, even where WordNet lists them
# as synonyms of an innocent sense.
BLOCKED = set(
    """
    ass arse asshole bastard bitch bollocks bugger bullshit butt cock crap cunt damn dick dickhead
    dyke fag faggot fuck fucking goddam goddamn hell homo jerk jism knocker knockers negro nigger
    nigga pecker piss prick pussy queer retard screw shit slut spic tit tits titty twat whore wop
    dago kike gook honky spade coon cracker booze boob boobs bum sod wank wanker poop pee puke
    crapper john can loo potty rump fanny tush bumf dork dope nut nuts bonk hump lay shag bang
    nookie nooky cooze gash snatch muff jugs melons rack schmuck shmuck putz schlong dong wang
    weenie wiener willy peter johnson tool member organ gay drunk stoned wasted pissed
    """.split()
)

# Pairs (`lemma>replacement`, or `lemma/pos>replacement`) the scores accept but a reader would not: found by reading the output for the most
# frequent words. The usual cause is a verb whose replacement takes other complements ("live in
# Paris" -> "populate in Paris") or a sense that is first in SemCor but not in everyday text.
REJECTED = set(
    tuple(pair.split(">"))
    for pair in """
    live>populate live>inhabit girl>miss minute>min mean>intend indicate>point conclude>reason
    certain>definite fly>wing growth>growing poor>piteous detailed>careful attack>onrush
    visual>optical authority>potency run>tally swear>curse study>survey mean>average
    group>grouping concern>pertain result>ensue soon>presently certainly>sure assure>insure
    insure>assure understanding>apprehension faith>religion bullet>slug approve>sanction
    wave>beckon god>divinity shooting>shot fall>autumn average>mean oath>curse total>number
    spot>spy brush>thicket transfer>transportation dismiss>discount finding>determination
    injury>hurt leaf>foliage recover>retrieve recover>regain government>regime unity>integrity
    pursuant>consistent coach>manager wage>earnings single>individual need>require
    need>necessitate answer/v>reply help/v>aid help/v>assist finish>complete improve>better
    small>little street>thoroughfare city>metropolis forest>wood speak>talk try>attempt
    study>analyze study>examine sorry>bad fight>struggle reach>attain bug>insect computer>machine
    decision>conclusion conclusion>decision result>effect end>terminate
    delicious>delightful product>merchandise reasonable>sensible technology>engineering excellent>superior
    wonderful>tremendous degree>level recommend>advocate partner>spouse remarkable>singular
    promotion>publicity double>multiple valued>quantitative built>improved weird>supernatural
    looking>superficial acting>temporary wrapped>draped given>granted graduate>high quasi>similar
    teen>young teenage>young resume>survey puncher>cowboy lid>eyelid idiotic>insane
    exquisite>intense interlocking>complex literal>true cows>oxen oxen>cows cross>transverse
    complaint>ailment forego>precede vacate>resign ratify>sign recreate>revive ordain>enact
    secede>splinter pervade>diffuse phrase>articulate impetus>drift conquer>inhibit
    conquer>suppress inhibit>conquer spell>trance savor>bask sweep>expanse muddy>wet
    opposing>hostile hurrying>fast curse>oath reflective>brooding respective>various
    respective>single respective>individual underway>current uniformed>clad eternal>permanent
    wonderful>extraordinary entitled>eligible intake>uptake profit>earnings pay>earnings salary>earnings wage>earnings
    """.split()
)

# Pairs just below the thresholds that read well, found the same way; they still must share the
# word's most frequent sense and cover half of its uses.
ACCEPTED = set(
    tuple(pair.split(">"))
    for pair in """
    hire>employ exceed>surpass put>place soon>shortly team>squad role>function weep>cry
    defeat>overcome mistake>error total>sum origin>source repair>fix amazing>astonishing
    farming>agriculture deadly>fatal elevate>raise rebuild>reconstruct instruct>teach
    behave>act awaken>wake reduce>cut substantial>significant sidewalk>pavement
    """.split()
)

# SemCor counts are small; these thresholds were tuned by reading the output (see --explain).
MIN_FIT = 0.5  # shared senses must cover this share of the word's uses
MIN_READ = 0.3  # the replacement must be read in a shared sense this often
MIN_CAND_COUNT = 3  # the replacement's own tag count in this part of speech
MIN_CAND_FAMILIARITY = 5  # see WordNet.familiarity
MIN_CONFIDENCE = 0.5  # fit * sqrt(read) of the best replacement; below it most were wrong
SATELLITE_DISCOUNT = 0.75  # an adjective cluster's head is a near-synonym, not a synonym
MAX_CANDIDATES = 3
MIN_HYPER_DEPTH = 7
# Lexicographer files of concrete things (animals, artifacts, food, natural objects, plants,
# substances): their hypernyms are still concrete ("cat" -> "feline"), while abstract nouns climb
# to something vaguer ("technology" -> "application").
CONCRETE_LEXFILES = {5, 6, 13, 17, 20, 27}
MIN_HYPER_FAMILIARITY = 3
MIN_HYPER_FIT = 0.7


def is_plain_word(word):
    return bool(re.fullmatch(r"[a-z]{3,}", word))


class WordNet:
    def __init__(self, root):
        self.root = root
        self.synsets = {}  # (pos, offset) -> dict
        self.index = defaultdict(dict)  # lemma -> pos -> [offsets]
        self.counts = {}  # sense key -> tag count
        self.capitalised = set()  # lowercase lemmas that WordNet also has as a name
        self.exceptions = []  # (inflected, base, pos)
        self.exception_forms = defaultdict(set)  # pos -> inflected forms
        self.gloss_freq = defaultdict(int)  # word -> uses in glosses
        self._depth = {}
        self._read_data()
        self._read_index()
        self._read_counts()
        self._read_exceptions()
        self.sense_counts = {}  # (lemma, pos, offset) -> count
        self._assign_counts()

    def _lines(self, name):
        with open(os.path.join(self.root, name), encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):
                    continue  # the licence header
                yield line.rstrip("\n")

    def _read_data(self):
        for pos, name in POS_FILES.items():
            for line in self._lines("data." + name):
                synset, _, gloss = line.partition(" | ")
                for word in re.findall(r"[a-z]+", gloss.lower()):
                    self.gloss_freq[word] += 1
                head = synset.split()
                offset, lexfile, ss_type = head[0], int(head[1]), head[2]
                w_cnt = int(head[3], 16)
                words = []
                i = 4
                for _ in range(w_cnt):
                    raw = re.sub(r"\((a|p|ip)\)$", "", head[i])
                    words.append((raw, int(head[i + 1], 16)))
                    i += 2
                p_cnt = int(head[i])
                i += 1
                ptrs = []
                for _ in range(p_cnt):
                    ptrs.append((head[i], head[i + 1], head[i + 2], head[i + 3]))
                    i += 4
                self.synsets[(pos, offset)] = {
                    "lexfile": lexfile,
                    "ss_type": ss_type,
                    "words": words,
                    "ptrs": ptrs,
                }
                # A name: an instance of a person or place ("Smith", "Mark"), or a month or day
                # ("May"). Capitalised titles ("Doctor") and acronyms ("CAT") do not count.
                is_name = (lexfile in NAME_LEXFILES and any(p[0] == "@i" for p in ptrs)) or lexfile == 28
                for raw, _ in words:
                    if is_name and raw != raw.lower() and raw != raw.upper():
                        self.capitalised.add(raw.lower())

    def _read_index(self):
        for pos, name in POS_FILES.items():
            for line in self._lines("index." + name):
                f = line.split()
                lemma, synset_cnt, p_cnt = f[0], int(f[2]), int(f[3])
                offsets = f[6 + p_cnt : 6 + p_cnt + synset_cnt]
                self.index[lemma][pos] = offsets

    def _read_counts(self):
        for line in self._lines("cntlist.rev"):
            key, _num, cnt = line.split()
            self.counts[key] = int(cnt)

    def _read_exceptions(self):
        for pos, name in POS_FILES.items():
            for line in self._lines(name + ".exc"):
                f = line.split()
                for base in f[1:]:
                    self.exceptions.append((f[0], base, pos))
                    self.exception_forms[pos].add(f[0])

    def sense_key(self, lemma_raw, lex_id, pos, offset):
        s = self.synsets[(pos, offset)]
        ss = s["ss_type"]
        head, head_id = "", ""
        if ss == "s":
            for sym, off, p, _ in s["ptrs"]:
                if sym == "&":
                    hw, hid = self.synsets[(p, off)]["words"][0]
                    head, head_id = hw.lower(), "%02d" % hid
                    break
        return "%s%%%d:%02d:%02d:%s:%s" % (
            lemma_raw.lower(),
            SS_TYPE_NUM[ss],
            s["lexfile"],
            lex_id,
            head,
            head_id,
        )

    def _assign_counts(self):
        for (pos, offset), s in self.synsets.items():
            for raw, lex_id in s["words"]:
                key = self.sense_key(raw, lex_id, pos, offset)
                self.sense_counts[(raw.lower(), pos, offset)] = self.counts.get(key, 0)

    def senses(self, lemma, pos):
        """The lemma's synsets in WordNet's frequency order, leaving out those where it is only a
        proper noun ("Nice" the city is not a sense of "nice")."""
        return [
            o
            for o in self.index.get(lemma, {}).get(pos, [])
            if lemma in (raw for raw, _ in self.synsets[(pos, o)]["words"])
        ]

    def weight(self, lemma, pos):
        return sum(self.sense_counts.get((lemma, pos, o), 0) for o in self.senses(lemma, pos))

    def distribution(self, lemma, pos):
        """P(sense | lemma, pos): tag counts smoothed by a prior that decays with WordNet's
        frequency order, so that untagged senses keep a little mass and an untagged word still
        trusts its first sense most."""
        offs = self.senses(lemma, pos)
        prior = [0.5**i for i in range(len(offs))]
        total_prior = sum(prior)
        cnts = [self.sense_counts.get((lemma, pos, o), 0) for o in offs]
        total = sum(cnts)
        smoothing = 1.0  # worth one tag, spread by the prior
        return {
            o: (c + smoothing * p / total_prior) / (total + smoothing)
            for o, c, p in zip(offs, cnts, prior)
        }

    def depth(self, offset):
        """Shortest hypernym path from a noun synset to the root."""
        if offset in self._depth:
            return self._depth[offset]
        self._depth[offset] = 0  # a guard against cycles; WordNet has none
        ups = [o for sym, o, p, _ in self.synsets[("n", offset)]["ptrs"] if sym in ("@", "@i")]
        d = 0 if not ups else 1 + min(self.depth(o) for o in ups)
        self._depth[offset] = d
        return d

    def familiarity(self, word):
        """How familiar a word is: its tag count in SemCor plus a share of how often WordNet's own
        glosses use it, which ranks words SemCor is too small to count ("feline")."""
        tags = sum(self.weight(word, pos) for pos in POS_FILES)
        return tags + self.gloss_freq.get(word, 0) / 4

    def inflected_look(self, word, pos):
        """Whether a lemma looks inflected itself ("woods", "oxen", "larger"): replacing it with
        one that does not would break agreement ("the woods are" -> "the forest are")."""
        if pos not in ("n", "a"):
            return False
        if word in self.exception_forms[pos]:
            return True
        suffixes = ("s", "es") if pos == "n" else ("er", "est")
        for suffix in suffixes:
            if word.endswith(suffix) and len(word) > len(suffix) + 2:
                stem = word[: -len(suffix)]
                if any(s in self.index and pos in self.index[s] for s in (stem, stem + "e")):
                    return True
                if stem.endswith("i") and (stem[:-1] + "y") in self.index:
                    return True
        return False

    def words_of(self, pos, offset):
        return [raw for raw, _ in self.synsets[(pos, offset)]["words"]]

    def satellite_head(self, pos, offset):
        s = self.synsets[(pos, offset)]
        if s["ss_type"] != "s":
            return None
        for sym, off, p, _ in s["ptrs"]:
            if sym == "&":
                return off
        return None


def related_forms(a, b):
    """Spelling variants and derivations of one stem ("whisky"/"whiskey", "dark"/"darkness",
    "vote"/"voting"): WordNet lists them as synonyms, but swapping them is not a paraphrase and
    usually changes the word class."""
    prefix = 0
    for x, y in zip(a, b):
        if x != y:
            break
        prefix += 1
    return prefix >= 3 and prefix >= min(len(a), len(b)) - 1


def usable(word):
    return is_plain_word(word) and word not in FUNCTION_WORDS and word not in BLOCKED


def candidates(wn, lemma, pos, explain=False):
    """Replacements for `lemma` in `pos`, best first, with the best one's confidence (0-1)."""
    offs = wn.senses(lemma, pos)
    if not offs:
        return [], 0.0
    dist = wn.distribution(lemma, pos)
    first = offs[0]
    # candidate -> {offset of a shared sense: how much that sense counts}
    shared = defaultdict(dict)
    for off in offs:
        for raw in wn.words_of(pos, off):
            if raw == raw.lower() and raw != lemma:
                shared[raw][off] = 1.0
        if pos == "a":
            head = wn.satellite_head(pos, off)
            if head is not None:
                for raw in wn.words_of(pos, head):
                    if raw == raw.lower() and raw != lemma:
                        shared[raw].setdefault(off, SATELLITE_DISCOUNT)
    scored = []
    for cand, senses in shared.items():
        if not usable(cand) or first not in senses:
            continue
        fit = sum(dist[o] * w for o, w in senses.items())
        cdist = wn.distribution(cand, pos)
        # The replacement's own senses that coincide with the shared ones; for a cluster head the
        # shared sense is the head synset itself.
        covered = {}
        for o, w in senses.items():
            if o in cdist:
                covered[o] = max(covered.get(o, 0.0), 1.0)
            else:
                head = wn.satellite_head(pos, o)
                if head in cdist:
                    covered[head] = max(covered.get(head, 0.0), w)
        read = sum(cdist[o] * w for o, w in covered.items())
        ccount = wn.weight(cand, pos)
        accepted = (lemma, cand) in ACCEPTED
        ok = (
            fit >= MIN_FIT
            and (accepted or read >= MIN_READ)
            and ccount >= MIN_CAND_COUNT
            and wn.familiarity(cand) >= MIN_CAND_FAMILIARITY
            and (accepted or fit * math.sqrt(read) >= MIN_CONFIDENCE)
            and wn.inflected_look(cand, pos) == wn.inflected_look(lemma, pos)
            and (lemma, cand) not in REJECTED
            and (lemma + "/" + pos, cand) not in REJECTED
            and not related_forms(lemma, cand)
        )
        score = fit * math.sqrt(read) * math.log(2 + ccount)
        if explain:
            print(
                "   %-16s fit=%.2f read=%.2f count=%3d score=%.2f %s"
                % (cand, fit, read, ccount, score, "OK" if ok else "-")
            )
        if ok:
            scored.append((score, max(fit * math.sqrt(read), MIN_CONFIDENCE), cand))
    scored.sort(key=lambda t: (-t[0], t[2]))
    if not scored:
        return [], 0.0
    return [c for _, _, c in scored[:MAX_CANDIDATES]], scored[0][1]


def hypernym(wn, lemma):
    """A single-word hypernym of the dominant noun sense, when that sense clearly dominates, is a
    concrete thing, and the hypernym is specific (deep in the hierarchy, same lexicographer file)
    and familiar: "cat" gives "feline", but "woman" does not give "adult"."""
    offs = wn.senses(lemma, "n")
    if not offs:
        return None
    dist = wn.distribution(lemma, "n")
    first = offs[0]
    if dist[first] < MIN_HYPER_FIT:
        return None
    lexfile = wn.synsets[("n", first)]["lexfile"]
    if lexfile not in CONCRETE_LEXFILES:
        return None
    best = None
    for sym, off, p, _ in wn.synsets[("n", first)]["ptrs"]:
        if sym not in ("@", "@i") or p != "n":
            continue
        if wn.synsets[("n", off)]["lexfile"] != lexfile or wn.depth(off) < MIN_HYPER_DEPTH:
            continue
        for raw in wn.words_of("n", off):
            if raw != raw.lower() or not usable(raw) or raw == lemma or (lemma, raw) in REJECTED:
                continue
            cdist = wn.distribution(raw, "n")
            if cdist.get(off, 0.0) < 0.5:
                continue
            familiarity = wn.familiarity(raw)
            if familiarity < MIN_HYPER_FAMILIARITY:
                continue
            if best is None or familiarity > best[0]:
                best = (familiarity, raw)
    return best[1] if best else None


# Lemmas written by hand, `lemma ENTRY`: a noun reading with a weight that makes it certain.
ADDED_LEMMAS = {
    "bike": "n5", "exam": "n5", "chef": "n5", "lorry": "n5", "queue": "n5", "scary": "a5", "tasty": "a5",
}


def build(wn, explain_words=()):
    lines = []
    stats = defaultdict(int)
    for lemma in sorted(wn.index):
        if not is_plain_word(lemma) or lemma in FUNCTION_WORDS:
            continue
        entries = []
        for pos in "nvar":
            if pos not in wn.index[lemma]:
                continue
            if lemma in explain_words:
                print("%s/%s weight=%d" % (lemma, pos, wn.weight(lemma, pos)))
            weight = wn.weight(lemma, pos)
            cands, conf = candidates(wn, lemma, pos, lemma in explain_words)
            hyper = hypernym(wn, lemma) if pos == "n" else None
            if lemma in explain_words:
                print("   -> %s conf=%.2f hyper=%s" % (cands, conf, hyper))
            entry = "%s%d" % (pos, weight)
            if cands:
                entry += "=%d%s" % (max(1, min(9, round(conf * 9))), ",".join(cands))
                stats["with_" + pos] += 1
            if hyper:
                entry += "^" + hyper
                stats["hyper"] += 1
            entries.append((entry, weight, bool(cands) or bool(hyper)))
        has_cands = any(e[2] for e in entries)
        # A lemma without replacements is kept only when its weight matters: it may compete with
        # another lemma for the same surface form ("leaves": leaf or leave), and an untagged
        # lemma never outweighs a tagged one.
        if not has_cands and all(e[1] == 0 for e in entries):
            continue
        flag = "!" if lemma in wn.capitalised else ""
        lines.append(lemma + flag + " " + " ".join(e[0] for e in entries))
        stats["lines"] += 1
    # Everyday words that `everyday.txt` replaces but that WordNet 3.0 lacks ("exam") or that the
    # rule above drops as never tagged ("bike"): without a line the plugin cannot read them.
    present = {line.split(" ")[0].rstrip("!") for line in lines}
    for lemma, entry in ADDED_LEMMAS.items():
        if lemma not in present:
            lines.append(lemma + " " + entry)
            stats["lines"] += 1
    lines.sort(key=lambda line: line.split(" ")[0].rstrip("!"))
    return lines, stats


def exception_lines(wn, by_base, lemmas):
    """WordNet's irregular forms as `inflected base pos` lines, or `base pos inflected` lines when
    `by_base`; both sorted so that the plugin can binary-search them. Only forms of `lemmas` (the
    lexicon's, which include every replacement) can matter to the plugin."""
    rows = set()
    for inflected, base, pos in wn.exceptions:
        if not (is_plain_word(inflected) and re.fullmatch(r"[a-z]+", base)) or base not in lemmas:
            continue
        if base in FUNCTION_WORDS or inflected in FUNCTION_WORDS:
            continue
        if by_base:
            rows.add("%s %s %s" % (base, pos, inflected))
        else:
            rows.add("%s %s %s" % (inflected, base, pos))
    return sorted(rows)


def licence_text(copyright_path):
    """The WordNet 3.0 licence paragraph from Debian's machine-readable copyright file."""
    out = []
    inside = False
    with open(copyright_path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("License: WordNet3.0"):
                inside = True
                continue
            if inside:
                if not line.startswith(" "):
                    break
                text = line[1:].rstrip("\n")
                out.append("" if text == "." else text)
    return "\n".join(out).strip() + "\n"


def write_lines(path, lines):
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wordnet", default="/usr/share/wordnet")
    parser.add_argument("--copyright", default="/usr/share/doc/wordnet-base/copyright")
    parser.add_argument("--out", default=os.path.join(here, "..", "data"))
    parser.add_argument("--explain", nargs="*", default=[])
    args = parser.parse_args()

    wn = WordNet(args.wordnet)
    lines, stats = build(wn, set(args.explain))
    if args.explain:
        return
    os.makedirs(args.out, exist_ok=True)
    lexicon = "\n".join(lines) + "\n"
    write_lines(os.path.join(args.out, "lexicon.txt"), lines)
    lemmas = {line.split(" ")[0].rstrip("!") for line in lines}
    exc = exception_lines(wn, by_base=False, lemmas=lemmas)
    write_lines(os.path.join(args.out, "exceptions.txt"), exc)
    write_lines(os.path.join(args.out, "inflections.txt"), exception_lines(wn, True, lemmas))
    write_lines(os.path.join(args.out, "stopwords.txt"), sorted(FUNCTION_WORDS))
    with open(os.path.join(args.out, "WORDNET-LICENSE"), "w", encoding="utf-8") as f:
        f.write("The lexicon in this directory is derived from WordNet 3.0.\n\n")
        f.write(licence_text(args.copyright))
    print(
        "lexicon.txt: %d lines, %d bytes; exceptions.txt: %d lines"
        % (stats["lines"], len(lexicon), len(exc)),
        file=sys.stderr,
    )
    print(
        "replacements: n=%d v=%d a=%d r=%d; hypernyms=%d"
        % (stats["with_n"], stats["with_v"], stats["with_a"], stats["with_r"], stats["hyper"]),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
