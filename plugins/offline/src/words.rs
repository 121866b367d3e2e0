//! The words layer: what class a word belongs to, read from the lexicon and its inflections
//! (`is_noun`, `is_plural_noun`, `clearly_finite`...), and one named list per closed class
//! (articles, determiners, pronouns, prepositions, time nouns...). Every rule asks here, so that
//! a word means the same to all of them; a rule that needs only part of a class names the part
//! here, composed from the class's pieces, rather than keeping a list of its own.

use crate::lexicon::{self, Pos};
use crate::morph::{self, Form};

/// The lists joined into one array, at compile time: a narrower or wider class is spelled as
/// the classes it is made of. `N` must be the total length.
pub const fn concat<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut k, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(k == N, "the length given is not the parts' total");
    out
}

// The closed classes, and the named parts of them that rules read.

pub const ARTICLES: &[&str] = &["the", "a", "an"];

pub const DEMONSTRATIVES: &[&str] = &["this", "that", "these", "those"];

/// The possessive determiners of persons, whose possessor may be the subject itself ("hurt his
/// knee").
pub const PERSONAL_POSSESSIVES: &[&str] = &["my", "your", "his", "her", "our", "their"];

pub const POSSESSIVE_DETERMINERS: &[&str] = &concat::<7>(&[PERSONAL_POSSESSIVES, &["its"]]);

pub const QUANTIFIERS: &[&str] =
    &["every", "each", "another", "some", "any", "no", "many", "few", "several", "both", "either", "neither"];

/// Numbers that count a phrase's noun ("two weeks", "twelve hours").
pub const SMALL_NUMBERS: &[&str] =
    &["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve"];

/// Every determiner but "that", which more often opens a clause than a noun phrase: after one of
/// these comes a noun or an adjective.
pub const DETERMINERS: &[&str] = &concat::<27>(&[
    ARTICLES,
    &["this", "these", "those"],
    POSSESSIVE_DETERMINERS,
    QUANTIFIERS,
    &["such", "whose"],
]);

/// The determiners of the noun phrases that the voice and tense rules take as subject or object
/// ("the", "my", "these", "several", "some"): not "its", which points back, nor quantifiers like
/// "every", "no", whose phrase does not move into a passive unchanged.
pub const NOUN_PHRASE_DETERMINERS: &[&str] =
    &concat::<15>(&[ARTICLES, PERSONAL_POSSESSIVES, DEMONSTRATIVES, &["several", "some"]]);

/// The determiners that open a place or time phrase ("in the garden", "every morning", "for two
/// weeks").
pub const PHRASE_DETERMINERS: &[&str] =
    &concat::<24>(&[ARTICLES, PERSONAL_POSSESSIVES, DEMONSTRATIVES, &["every"], SMALL_NUMBERS]);

/// The determiners a singular noun takes ("the", "its", "this"; not "these"): before a possessive
/// owner ("the dog's") or a noun ("the plan").
pub const SINGULAR_DETERMINERS: &[&str] =
    &concat::<12>(&[ARTICLES, POSSESSIVE_DETERMINERS, &["this", "that"]]);

/// Participles that after "be" tell a state, not an event that happened to the subject ("was
/// born", "is supposed to", "is closed on Sundays"): "was" + one of them is no passive to tell as
/// "has been", and a pronoun's "'s" before one is "is" unless an object follows ("she's closed
/// the door").
pub const STATE_PARTICIPLES: &[&str] = &[
    "born",
    "married",
    "divorced",
    "engaged",
    "called",
    "named",
    "supposed",
    "expected",
    "located",
    "situated",
    "based",
    "known",
    "made",
    "related",
    "involved",
    "dressed",
    "surprised",
    "shocked",
    "pleased",
    "disappointed",
    "amazed",
    "interested",
    "excited",
    "bored",
    "worried",
    "scared",
    "frightened",
    "tired",
    "gone",
    "finished",
    "done",
    "closed",
    "broken",
    "allowed",
    "meant",
    "used",
    "covered",
    "filled",
    "crowded",
    "packed",
];

/// The definite determiners a subject of one thing opens with ("the", "my", "this").
pub const DEFINITE_DETERMINERS: &[&str] = &concat::<9>(&[&["the"], PERSONAL_POSSESSIVES, &["this", "that"]]);

/// Nouns for people, where a rule needs a person and not a thing ("What does your sister do for a
/// living?", "will be back" of someone).
pub const PEOPLE: &[&str] = &[
    "man",
    "men",
    "woman",
    "women",
    "boy",
    "boys",
    "girl",
    "girls",
    "child",
    "children",
    "kid",
    "kids",
    "baby",
    "teacher",
    "teachers",
    "doctor",
    "nurse",
    "brother",
    "sister",
    "mother",
    "father",
    "mum",
    "dad",
    "parents",
    "friend",
    "friends",
    "neighbour",
    "neighbours",
    "neighbor",
    "neighbors",
    "manager",
    "boss",
    "team",
    "students",
    "student",
    "pupils",
    "grandmother",
    "grandfather",
    "aunt",
    "uncle",
    "cousin",
    "son",
    "daughter",
    "wife",
    "husband",
    "staff",
    "waiter",
    "driver",
    "police",
    "family",
    "guests",
    "visitors",
    "people",
    "infant",
    "mechanic",
    "dentist",
    "chef",
    "cook",
    "engineer",
    "engineers",
    "workers",
    "owner",
    "guide",
];

/// The pronouns in the subject case.
pub const SUBJECT_PRONOUNS: &[&str] = &["i", "you", "he", "she", "we", "they", "it"];

/// The forms of the verbs of liking that take either complement ("likes swimming", "likes to
/// swim").
pub const LIKING_FORMS: &[&str] = &[
    "like",
    "likes",
    "liked",
    "love",
    "loves",
    "loved",
    "hate",
    "hates",
    "hated",
    "prefer",
    "prefers",
    "preferred",
];

/// The pronouns in the object case, as after a verb or a preposition.
pub const OBJECT_PRONOUNS: &[&str] = &["me", "us", "him", "her", "them", "you"];

/// The prepositions that open a phrase after a noun phrase, which therefore ends there ("the keys
/// on the table", "a letter to my aunt"); not "of", which continues it.
pub const PHRASE_PREPOSITIONS: &[&str] = &[
    "in", "on", "at", "near", "next", "under", "behind", "outside", "inside", "beside", "across", "around",
    "above", "below", "between", "opposite", "by", "into", "onto", "over", "with", "for", "from", "during",
    "after", "before", "to", "off", "up", "down", "out", "through", "along", "towards",
];

/// The prepositions (with "next" of "next to", and the particles "up", "down", "out", "off",
/// which are prepositions too): no rule keeps a list of its own, only a named part of this one.
pub const PREPOSITIONS: &[&str] = &concat::<45>(&[
    PHRASE_PREPOSITIONS,
    &["of", "about", "without", "among", "against", "until", "till", "since", "than", "as", "like"],
]);

/// The prepositions that open a place phrase at the end of a sentence ("at the beach"), and
/// "during" and "through", whose phrase moves the same way.
pub const PLACE_PREPOSITIONS: &[&str] = &[
    "at", "in", "on", "during", "near", "outside", "inside", "behind", "along", "across", "around",
    "through", "from",
];

/// The prepositions that are never a particle nor a conjunction: what follows one is its object
/// (a noun, an adjective, a gerund), never a finite verb ("closed for repairs").
pub const OBJECT_PREPOSITIONS: &[&str] = &[
    "for", "with", "of", "from", "about", "without", "into", "onto", "during", "under", "between", "among",
    "against", "towards", "through",
];

/// The prepositions that govern a time word after them ("until tomorrow", "the end of last year").
const TIME_PREPOSITIONS: &[&str] = &[
    "of", "for", "since", "until", "till", "by", "from", "than", "about", "like", "with", "to", "in", "on",
    "at", "during", "after", "before",
];

/// The words that tie a time phrase after them to what comes before ("the end of last year"), so
/// that the phrase cannot move.
pub const TIME_BINDERS: &[&str] = &concat::<20>(&[TIME_PREPOSITIONS, &["the", "a"]]);

/// The words that tie a time adverb after them to what comes before ("since yesterday", "as
/// today").
pub const ADVERB_BINDERS: &[&str] = &concat::<21>(&[TIME_PREPOSITIONS, &["as", "through", "the"]]);

/// Words that start another clause or coordinate one: with them in the sentence, a moved
/// adverb or phrase could attach to the wrong verb.
pub const CLAUSE_WORDS: &[&str] = &[
    "and", "but", "or", "because", "so", "when", "while", "if", "that", "who", "which", "where", "until",
    "before", "after", "although", "since", "than", "as", "to",
];

/// Verbs that ask for a favour after "Can you" or "Could you" ("Can you pass the salt?"): with
/// them the question is a request, with others it may ask what one is able to do ("Can you
/// swim?"), which "could" would put in the past.
pub const REQUEST_VERBS: &[&str] = &[
    "help", "pass", "send", "give", "show", "tell", "lend", "bring", "take", "turn", "open", "close", "shut",
    "call", "ring", "check", "pick", "carry", "print", "fix", "explain", "remind", "book", "save", "hold",
    "move", "fetch", "put", "repeat", "spell", "email", "text", "wait", "let", "buy", "drop", "collect",
    "water", "feed", "clean", "tidy", "sign", "forward", "lock", "switch", "grab", "order", "post", "look",
    "set", "sort", "phone", "meet",
];

/// Verbs of a skill or a sense after "Can you" ("Can you swim?", "Can you see the sea?"): the
/// question asks what one is able to do, which "Could you" would put in the past.
pub const ABILITY_VERBS: &[&str] = &[
    "swim",
    "drive",
    "speak",
    "read",
    "cook",
    "play",
    "ride",
    "sing",
    "dance",
    "ski",
    "type",
    "write",
    "draw",
    "knit",
    "sew",
    "skate",
    "surf",
    "dive",
    "run",
    "climb",
    "hear",
    "see",
    "smell",
    "taste",
    "feel",
    "understand",
    "remember",
    "believe",
    "imagine",
    "whistle",
    "juggle",
    "tell",
];

/// The forms of "be" that head a clause in the present or the past.
pub const FINITE_BE: &[&str] = &["is", "are", "was", "were"];

/// The forms of "have" that head a clause.
pub const FINITE_HAVE: &[&str] = &["has", "have", "had"];

/// The forms of "do" that head a clause.
pub const FINITE_DO: &[&str] = &["do", "does", "did"];

/// Every form of "be", with the contractions that end in one ("it's", "they're").
pub const BE_FORMS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "being", "am", "isn't", "aren't", "wasn't", "weren't", "it's",
    "he's", "she's", "that's", "there's", "what's", "i'm", "you're", "we're", "they're",
];

/// Every form of "have", with the contractions that end in one ("I've").
pub const HAVE_FORMS: &[&str] =
    &["have", "has", "had", "having", "haven't", "hasn't", "hadn't", "i've", "you've", "we've", "they've"];

/// The weekdays' names, the tail of `TIME_NOUNS`.
pub const DAY_NAMES: &[&str] =
    &["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/// The words before a noun that may ask which one or who ("asked the teacher which book", "know
/// the man who"), where a "which" or "who" after the noun may be a question's, not a relative
/// pronoun.
pub const ASKING: &[&str] = &[
    "ask",
    "asks",
    "asked",
    "asking",
    "tell",
    "tells",
    "told",
    "know",
    "knows",
    "knew",
    "wonder",
    "wondered",
    "wondering",
    "decide",
    "decided",
    "choose",
    "chose",
    "show",
    "showed",
    "shown",
    "explain",
    "explained",
    "see",
    "saw",
    "check",
    "checked",
    "remember",
    "forget",
    "forgot",
    "sure",
    "idea",
    "guess",
    "learn",
    "learned",
    "learnt",
    "understand",
    "out",
    "find",
    "found",
    "work",
];

/// Nouns of time, the names of the days last (`DAY_NAMES` is their tail); a time phrase ends with
/// one, and they date an event.
pub const TIME_NOUNS: &[&str] = &concat::<21>(&[
    &[
        "night",
        "morning",
        "evening",
        "afternoon",
        "week",
        "weekend",
        "month",
        "year",
        "summer",
        "winter",
        "spring",
        "autumn",
        "day",
        "time",
    ],
    DAY_NAMES,
]);

/// Units of time, singular and plural, from the second to the year.
pub const TIME_UNITS: &[&str] = &[
    "second", "seconds", "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "month",
    "months", "year", "years",
];

/// Units an amount is counted in: of time, distance, weight and money, and "percent". A count of
/// one is an amount "under" and "over" bound ("under an hour"), and after "by" no agent ("delayed
/// by an hour").
pub const AMOUNT_UNITS: &[&str] = &concat::<33>(&[
    TIME_UNITS,
    &[
        "mile",
        "miles",
        "metre",
        "metres",
        "meter",
        "meters",
        "kilometre",
        "kilometres",
        "kilo",
        "kilos",
        "kilogram",
        "kilograms",
        "pound",
        "pounds",
        "dollar",
        "dollars",
        "euro",
        "euros",
        "percent",
    ],
]);

/// The days in the plural, which tell a habit ("on Mondays").
pub const WEEKDAYS: &[&str] = &[
    "mondays",
    "tuesdays",
    "wednesdays",
    "thursdays",
    "fridays",
    "saturdays",
    "sundays",
    "weekdays",
    "weekends",
];

/// The months, but "may", which is far more often the verb.
pub const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Adverbs of how often or when in a sequence, which stand after the subject and may move to the
/// front ("Usually, I walk").
pub const FREQUENCY_ADVERBS: &[&str] = &[
    "usually",
    "often",
    "sometimes",
    "normally",
    "generally",
    "occasionally",
    "frequently",
    "finally",
    "eventually",
    "recently",
];

/// Words in "-ly" that are not manner adverbs.
pub const LY_NOT_MANNER: &[&str] = &[
    "only",
    "early",
    "friendly",
    "lovely",
    "lonely",
    "daily",
    "weekly",
    "monthly",
    "yearly",
    "likely",
    "family",
    "silly",
    "ugly",
    "holy",
    "lively",
    "elderly",
    "fly",
    "rely",
    "reply",
    "supply",
    "apply",
    "italy",
    "july",
    "belly",
    "jelly",
    "bully",
    "hourly",
    "costly",
    "deadly",
    "orderly",
    "really",
    "nearly",
    "hardly",
    "invariably",
];

// The word classes, read from the lexicon's evidence.

/// Whether a word denies: "not", "never", "no", "nobody" and the like, or a contracted "n't".
pub fn is_negation(word: &str) -> bool {
    let lower = word.replace('’', "'").to_lowercase();
    ["not", "never", "no", "cannot", "nobody", "nothing", "neither", "nor"].contains(&lower.as_str())
        || lower.ends_with("n't")
}

/// The verbs the lexicon keeps as function words (`data/stopwords.txt`), so that it has no
/// reading of them: their plain forms.
pub const FUNCTION_VERBS: &[&str] =
    &["be", "become", "dare", "do", "get", "go", "have", "let", "make", "say", "seem"];

/// Whether the lexicon reads the word as a verb's "-ing" form ("cooking", "dancing"; not
/// "morning", which is no verb's).
pub fn is_gerund(word: &str) -> bool {
    word.ends_with("ing") && morph::analyse(word).iter().any(|a| a.pos == Pos::Verb && a.form == Form::Gerund)
}

/// Whether the lexicon reads the word as a verb's plain form ("rain", "carry").
pub fn base_verb_reading(word: &str) -> bool {
    morph::analyse(word).iter().any(|a| a.pos == Pos::Verb && a.form == Form::Base)
}

/// Whether the word may be a verb's plain form: a reading in the lexicon, or a function verb
/// ("to go", "to say").
pub fn plain_verb(word: &str) -> bool {
    FUNCTION_VERBS.contains(&word) || base_verb_reading(word)
}

/// Whether the lexicon has some reading of the word in this part of speech, however rare.
pub fn can_be(word: &str, pos: Pos) -> bool {
    morph::analyse(word).iter().any(|a| a.pos == pos)
}

/// A noun, or a plain word the lexicon does not know (WordNet leaves out untagged nouns
/// without synonyms, such as "cafe").
pub fn is_noun(word: &str) -> bool {
    let a = morph::analyse(word);
    a.iter().any(|a| a.pos == Pos::Noun)
        || (a.is_empty()
            && word.len() > 2
            && word.bytes().all(|b| b.is_ascii_lowercase())
            && !lexicon::is_stopword(word))
}

/// A plural noun, or a singular one that agrees as a plural ("police").
pub fn is_plural_noun(word: &str) -> bool {
    // WordNet lists some plurals as lemmas of their own ("brakes", "glasses"): they still agree
    // as plurals. These few in "-s" are singular.
    const SINGULAR: &[&str] =
        &["news", "physics", "mathematics", "series", "species", "economics", "politics"];
    let a = morph::analyse(word);
    // A word WordNet does not know ("neighbours", British spellings) is plural by its ending.
    let unknown_plural = a.is_empty()
        && is_noun(word)
        && word.ends_with('s')
        && !["ss", "us", "is"].iter().any(|end| word.ends_with(end));
    // Collective nouns that always agree as plurals.
    const PLURAL: &[&str] = &["police", "people", "cattle"];
    PLURAL.contains(&word)
        || (unknown_plural || a.iter().any(|a| a.pos == Pos::Noun && a.form == Form::Plural))
            && !SINGULAR.contains(&word)
}

/// Adjectives or nouns only: the words between a determiner and its head noun.
pub fn modifier_or_noun(word: &str) -> bool {
    // A function word that is also an adjective.
    if word == "little" {
        return true;
    }
    let a = morph::analyse(word);
    let nominal = morph::evidence(&a, |a| matches!(a.pos, Pos::Noun | Pos::Adj));
    // Between a determiner and its noun a participle is an adjective too ("a fallen tree").
    let participle =
        a.iter().any(|a| a.pos == Pos::Verb && matches!(a.form, Form::Participle | Form::PastOrParticiple));
    !a.is_empty() && (nominal.at_least(8, 10) || participle)
}

pub fn is_verbish(word: &str) -> bool {
    morph::evidence(&morph::analyse(word), |a| a.pos == Pos::Verb).more_than(1, 2)
}

/// Whether most of a word's evidence (six tenths) reads it as a finite verb: a past or
/// third-person form ("needs", "took"), and, with `participle`, a regular "-ed" form that may
/// also be a participle ("walked").
pub fn clearly_finite(word: &str, participle: bool) -> bool {
    morph::evidence(&morph::analyse(word), |a| morph::is_finite(a, participle)).at_least(6, 10)
}

/// Whether a word heads a clause: a finite auxiliary or modal, or a finite verb by most of its
/// evidence.
pub fn heads_clause(word: &str) -> bool {
    const MODALS: &[&str] = &["will", "would", "can", "could", "should", "must", "might", "cannot"];
    // The common verbs the lexicon keeps as function words, in their finite forms.
    const COMMON: &[&str] = &[
        "went", "goes", "got", "gets", "came", "comes", "made", "makes", "said", "says", "took", "takes",
        "gave", "gives", "knew", "knows", "saw", "sees",
    ];
    // A negated auxiliary heads its clause as much as the plain one ("hats aren't allowed").
    let word = &word.replace('’', "'");
    let word = word.strip_suffix("n't").map_or(word.as_str(), |w| match w {
        "ca" => "can",
        "wo" => "will",
        "sha" => "shall",
        _ => w,
    });
    [FINITE_BE, FINITE_HAVE, FINITE_DO, MODALS, COMMON].iter().any(|list| list.contains(&word))
        || clearly_finite(word, true)
}

/// The tense `finite_lemma` looks for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Tense {
    Past,
    Present,
}

/// The lemma of a finite verb in `tense` (past, or the present's third person), when most of
/// the word's evidence says it is one.
pub fn finite_lemma(word: &str, tense: Tense, after_pronoun: bool) -> Option<&'static str> {
    let analyses = morph::analyse(word);
    let matches = |a: &morph::Analysis| {
        a.pos == Pos::Verb
            && match tense {
                Tense::Past => matches!(a.form, Form::Past | Form::PastOrParticiple),
                Tense::Present => a.form == Form::ThirdPerson,
            }
    };
    let needed = if after_pronoun { 5 } else { 7 };
    morph::evidence(&analyses, matches).at_least(needed, 10).then_some(())?;
    analyses.iter().find(|a| matches(a)).map(|a| a.entry.lemma)
}

/// The lemma of a past participle.
pub fn participle_lemma(word: &str) -> Option<&'static str> {
    morph::analyse(word)
        .into_iter()
        .find(|a| {
            a.pos == Pos::Verb
                && (matches!(a.form, Form::Participle | Form::PastOrParticiple)
                    // "run", "come": the participle is the base form.
                    || (a.form == Form::Base && morph::inflect(a.entry.lemma, Pos::Verb, Form::Participle).as_deref() == Some(word)))
        })
        .map(|a| a.entry.lemma)
}

/// A manner adverb in "-ly": WordNet reads it only as an adverb, or does not know it at all
/// (untagged adverbs are left out of the lexicon).
pub fn is_manner_adverb(word: &str) -> bool {
    if !word.ends_with("ly")
        || word.len() <= 4
        || LY_NOT_MANNER.contains(&word)
        || FREQUENCY_ADVERBS.contains(&word)
    {
        return false;
    }
    morph::analyse(word).iter().all(|a| a.pos == Pos::Adv)
}

/// The share of the SemCor evidence for a word that is in one part of speech (smoothed, so that
/// untagged readings count a little).
pub fn pos_share(word: &str, pos: Pos) -> f64 {
    let analyses = morph::analyse(word);
    let total: f64 = analyses.iter().map(|a| f64::from(a.weight) + 0.5).sum();
    let part: f64 = analyses.iter().filter(|a| a.pos == pos).map(|a| f64::from(a.weight) + 0.5).sum();
    if total > 0.0 { part / total } else { 0.0 }
}

/// The part of speech a word clearly has, if one has 80% of the evidence.
pub fn clear_pos(word: &str) -> Option<Pos> {
    Pos::ALL.into_iter().find(|&p| pos_share(word, p) >= 0.8)
}

/// Whether a capitalised word is a first name that is a word too ("Mike and Helen have split
/// up", "Rose called") or a title ("Dr Patel", "Mrs Smith"): at the start of a sentence it is the
/// name far more often than the word, so it keeps its capital wherever it moves.
pub fn first_name(word: &str) -> bool {
    const FIRST_NAMES: &[&str] = &[
        "Bill", "Bob", "Daisy", "Dawn", "Frank", "Grace", "Guy", "Harry", "Holly", "Jack", "Joy", "Lily",
        "Mike", "Pat", "Penny", "Ray", "Rob", "Rose", "Ruby", "Sandy", "Sue",
    ];
    const TITLES: &[&str] = &["Dr", "Mr", "Mrs", "Ms", "Miss", "St", "Sir", "Prof", "Rev"];
    FIRST_NAMES.contains(&word) || TITLES.contains(&word.trim_end_matches('.'))
}

/// Whether a word at the start of a sentence may be written in lowercase when a rewrite moves it
/// inside: a function word or a common noun, never "I" or a possible name.
pub fn lowercase_ok(word: &str) -> bool {
    let lower = word.to_lowercase();
    if lower == "i" || lower.starts_with("i'") || lower.starts_with("i’") || !lower.is_ascii() {
        return false;
    }
    // "We're", "It's", "There's": a pronoun's contraction is read by its pronoun; a name's
    // ("Sarah's") by the name, which keeps its capital.
    if let Some((stem, _)) = lower.split_once('\'')
        && ["we", "you", "they", "it", "he", "she", "there", "that", "what"].contains(&stem)
    {
        return true;
    }
    // "Dad fell asleep": a family word with no determiner is used as a name.
    const KIN: &[&str] = &[
        "dad", "mum", "mom", "mummy", "daddy", "mama", "papa", "grandma", "grandpa", "granny", "grandad",
        "nan", "nana",
    ];
    if KIN.contains(&lower.as_str()) || first_name(word) {
        return false;
    }
    if lexicon::is_stopword(&lower) {
        return true;
    }
    // "Maria met John": a name the lexicon also reads as a rare word's form keeps its capital.
    let analyses = morph::analyse(&lower);
    !analyses.is_empty() && analyses.iter().all(|a| !a.entry.proper) && !rare_word(&lower)
}

/// A word the lexicon knows only as a rare lemma ("maria", lunar plains, seen once in SemCor), which
/// at the start of a sentence is far more likely a name.
pub fn rare_word(lower: &str) -> bool {
    !common_word(lower)
        && lexicon::lookup(lower).is_some_and(|e| !e.proper && e.senses().map(|s| s.weight).sum::<u32>() < 3)
}

/// Whether a word is a function word, a common lemma of the lexicon or a regular plural of one: a name
/// such as "Maria" can also be read as an irregular form of a rare word ("mare"), and must keep
/// its capital.
pub fn common_word(lower: &str) -> bool {
    const PLURALS: &[&str] = &["children", "people", "men", "women", "feet", "teeth", "mice"];
    // A word seen a few times in SemCor: "maria" (lunar plains) is seen once, "weather" often.
    let lemma = |w: &str| {
        lexicon::lookup(w).is_some_and(|e| !e.proper && e.senses().map(|s| s.weight).sum::<u32>() >= 3)
    };
    lexicon::is_stopword(lower)
        || PLURALS.contains(&lower)
        || lemma(lower)
        || lower.strip_suffix('s').is_some_and(lemma)
        || lower.strip_suffix("es").is_some_and(lemma)
        || lower.strip_suffix("ies").is_some_and(|s| lemma(&format!("{s}y")))
        // "Swimming lessons start again": a gerund of a common verb is no name.
        || (lower.ends_with("ing")
            && morph::analyse(lower).iter().any(|a| a.form == Form::Gerund && lemma(a.entry.lemma)))
}

/// Nouns whose "that" opens what they tell, not a relative clause: "the news that he had left"
/// is no "the news he had left".
pub const CONTENT_NOUNS: &[&str] = &[
    "fact",
    "news",
    "idea",
    "belief",
    "hope",
    "feeling",
    "chance",
    "sign",
    "rumour",
    "rumor",
    "claim",
    "possibility",
    "evidence",
    "proof",
    "thought",
    "risk",
    "danger",
    "message",
    "warning",
    "promise",
    "condition",
    "impression",
    "suggestion",
    "doubt",
    "fear",
    "assumption",
    "point",
    "view",
    "opinion",
    "report",
    "argument",
    "decision",
    "rule",
    "theory",
    "announcement",
    "reminder",
    "statement",
    "complaint",
    "truth",
    "excuse",
    "guarantee",
    "proposal",
    "request",
    "advice",
    "information",
];

/// Events, which a time or place phrase after them may belong to ("their barbecue on Saturday",
/// "my nephew's birthday on Saturday", "leftovers from the party"), so that the phrase is not
/// moved away from them.
pub const EVENTS: &[&str] = &[
    "anniversary",
    "appointment",
    "assignment",
    "barbecue",
    "birthday",
    "breakfast",
    "celebration",
    "ceremony",
    "class",
    "concert",
    "conference",
    "course",
    "dinner",
    "essay",
    "exam",
    "exhibition",
    "fair",
    "festival",
    "flight",
    "fundraiser",
    "funeral",
    "game",
    "graduation",
    "holiday",
    "homework",
    "housewarming",
    "interview",
    "launch",
    "lesson",
    "lunch",
    "marathon",
    "match",
    "meeting",
    "operation",
    "party",
    "parade",
    "performance",
    "picnic",
    "presentation",
    "project",
    "quiz",
    "race",
    "recital",
    "reunion",
    "sale",
    "seminar",
    "session",
    "shift",
    "show",
    "surgery",
    "test",
    "tournament",
    "training",
    "trip",
    "visit",
    "webinar",
    "wedding",
    "workshop",
];

/// What a place keeps to a timetable ("extended its opening hours on Saturdays", "the fares at
/// weekends"): a time after one of these, not counted ("for two hours"), is its own, not the
/// sentence's.
pub const SCHEDULES: &[&str] = &["hours", "prices", "fares", "rates", "menu", "deliveries", "collections"];

/// Whether `word`, after `before`, names an event (`EVENTS`): "a charity run" or "a sponsored
/// walk" is one, where "go for a run" is an outing with no date of its own.
pub fn is_event(before: &str, word: &str) -> bool {
    // "the story time sessions on Friday mornings": a plural names the events as its singular does.
    let singular =
        word.strip_suffix("es").filter(|w| w.ends_with(['s', 'h'])).or_else(|| word.strip_suffix('s'));
    EVENTS.contains(&word)
        || singular.is_some_and(|w| EVENTS.contains(&w))
        || (["run", "walk", "swim", "ride", "climb"].contains(&word)
            && ["charity", "fun", "sponsored", "fundraising"].contains(&before))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_read_as_a_rare_word_keeps_its_capital() {
        assert!(!lowercase_ok("Maria"));
        assert!(lowercase_ok("The"));
        assert!(lowercase_ok("Children"));
    }

    #[test]
    fn a_part_of_a_class_is_in_the_class() {
        for part in [PHRASE_PREPOSITIONS, PLACE_PREPOSITIONS, OBJECT_PREPOSITIONS, TIME_PREPOSITIONS] {
            assert!(part.iter().all(|w| PREPOSITIONS.contains(w)), "{part:?}");
        }
        for part in [NOUN_PHRASE_DETERMINERS, PHRASE_DETERMINERS, SINGULAR_DETERMINERS, DEFINITE_DETERMINERS]
        {
            let other = |w: &&str| DETERMINERS.contains(w) || SMALL_NUMBERS.contains(w) || *w == "that";
            assert!(part.iter().all(other), "{part:?}");
        }
        assert!(!PREPOSITIONS.contains(&"the"));
    }

    #[test]
    fn a_negated_auxiliary_heads_its_clause() {
        for w in ["aren't", "isn’t", "won't", "can't", "didn't"] {
            assert!(heads_clause(w), "{w}");
        }
    }

    #[test]
    fn lowercasing() {
        assert!(lowercase_ok("The"));
        assert!(lowercase_ok("We're"));
        assert!(!lowercase_ok("Sarah's"));
        assert!(lowercase_ok("Weather"));
        assert!(!lowercase_ok("I"));
        assert!(!lowercase_ok("Smith"));
        assert!(!lowercase_ok("Xyzzy"));
        assert!(!lowercase_ok("Dr"));
        assert!(!lowercase_ok("Mrs"));
    }
}
