//! Wordy phrases and their short forms ("in order to" -> "to", "a lot of" -> "many" or "much",
//! "for example" <-> "for instance"), everyday collocations told in other words where their
//! context settles the sense ("the highlight of" -> "the high point of", "the washing machine broke
//! down" -> "stopped working", "fixed the gate" -> "repaired", "I'll get back to you" -> "I'll let
//! you know", "told me to" -> "said I should"), each tried only from its own first words, and the
//! fixed phrases whose words mean nothing alone ("of course"), frozen so that no later rule touches
//! them.
//!
//! Here the table of wordy phrases, the pass and the idioms and fixed phrases; the everyday
//! collocations in `collocations`, numbers, times and dates in `numbers`, and what both share with
//! the pass in `shared`.

mod amounts;
mod collocations;
mod complements;
mod compounds;
mod numbers;
mod objects;
mod routines;
mod shared;

use crate::shape::words_like;
use crate::sites::Sites;
use crate::tokens::{Token, matches_at, next_word, prev_word};
use crate::words::{OBJECT_PREPOSITIONS, is_negation};
use collocations::{
    COLLOCATION_STARTS, COLLOCATIONS, been_to_place, delayed_by, expectation, run_out, while_when,
};
use compounds::{place_compound, place_told_first, placed_thing};
use numbers::{
    clock_in_words, date_form, decade_in_words, every_second, habitual_day, large_sum_in_figures,
    money_in_words, more_or_another, number_in_digits, ordinal_birthday, placed_in_contest, range_of_time,
    spoken_time, waited_for,
};
use objects::{lets_allows, of_ones_own};
use routines::{counts, routine};
use shared::{After, Finder, opening, pause_after, quantifier_for};

const PHRASES: &[(&[&str], &[&str], After)] = &[
    (&["in", "order", "not", "to"], &["not", "to"], After::Word),
    (&["in", "order", "to"], &["to"], After::Word),
    (&["due", "to", "the", "fact", "that"], &["because"], After::Word),
    (&["in", "spite", "of"], &["despite"], After::Word),
    (&["despite"], &["in", "spite", "of"], After::Word),
    // Alternate ones, counted: "The recycling goes out every other week." -> "every two weeks".
    (&["every", "other", "day"], &["every", "two", "days"], After::Anything),
    (&["every", "other", "week"], &["every", "two", "weeks"], After::Anything),
    (&["every", "other", "month"], &["every", "two", "months"], After::Anything),
    (&["every", "other", "year"], &["every", "two", "years"], After::Anything),
    (&["prior", "to"], &["before"], After::Word),
    (&["a", "large", "number", "of"], &["many"], After::Word),
    (&["a", "great", "deal", "of"], &["much"], After::Word),
    (&["is", "able", "to"], &["can"], After::Word),
    (&["are", "able", "to"], &["can"], After::Word),
    (&["am", "able", "to"], &["can"], After::Word),
    (&["thanks", "for"], &["thank", "you", "for"], After::Word),
    (&["thank", "you", "for"], &["thanks", "for"], After::Word),
    (&["for", "example"], &["for", "instance"], After::Anything),
    (&["for", "instance"], &["for", "example"], After::Anything),
    (&["at", "the", "moment"], &["right", "now"], After::Pause),
    (&["right", "now"], &["at", "the", "moment"], After::Pause),
    (&["every", "now", "and", "then"], &["from", "time", "to", "time"], After::Anything),
    (&["every", "so", "often"], &["from", "time", "to", "time"], After::Anything),
    (&["near", "here"], &["nearby"], After::Pause),
    (&["around", "here"], &["nearby"], After::Pause),
    (&["for", "ages"], &["for", "a", "long", "time"], After::Anything),
    (&["loads", "of"], &["lots", "of"], After::Word),
    // Said of what was done, at the end of the clause: "by mistake" -> "accidentally" (before the
    // verb, "accidentally" would need another place).
    (&["by", "mistake"], &["accidentally"], After::Pause),
    (&["by", "accident"], &["accidentally"], After::Pause),
    (&["on", "purpose"], &["deliberately"], After::Pause),
    (&["all", "of", "a", "sudden"], &["suddenly"], After::Anything),
    (&["suddenly"], &["all", "of", "a", "sudden"], After::Pause),
    (&["at", "last"], &["finally"], After::Pause),
    (&["in", "the", "meantime"], &["meanwhile"], After::Anything),
    (&["meanwhile"], &["in", "the", "meantime"], After::Anything),
    (&["once", "again"], &["again"], After::Anything),
    (&["first", "of", "all"], &["first"], After::Anything),
    // "arrives on time" -> "arrives punctually": only after coming, going and starting.
    (&["on", "time"], &["punctually"], After::Pause),
    (&["once", "in", "a", "while"], &["from", "time", "to", "time"], After::Anything),
    (&["in", "addition"], &["also"], After::Pause),
    (&["next", "to"], &["beside"], After::Word),
    (&["because", "of"], &["due", "to"], After::Word),
    (&["each", "other"], &["one", "another"], After::Anything),
    (&["right", "away"], &["immediately"], After::Pause),
    (&["as", "well"], &["too"], After::Pause),
    (&["every", "day"], &["daily"], After::Pause),
    (&["every", "week"], &["weekly"], After::Pause),
    (&["every", "month"], &["monthly"], After::Pause),
    // How often a day, as a prescription says it.
    (&["once", "a", "day"], &["once", "daily"], After::Anything),
    (&["twice", "a", "day"], &["twice", "daily"], After::Anything),
    (&["three", "times", "a", "day"], &["three", "times", "daily"], After::Anything),
    // Times and quantities in their other spoken forms.
    (&["half", "an", "hour"], &["thirty", "minutes"], After::Anything),
    (&["a", "quarter", "of", "an", "hour"], &["fifteen", "minutes"], After::Anything),
    (&["an", "hour", "and", "a", "half"], &["ninety", "minutes"], After::Anything),
    (&["a", "dozen"], &["twelve"], After::Word),
    (&["a", "hundred"], &["one", "hundred"], After::Word),
    (&["a", "thousand"], &["one", "thousand"], After::Word),
    (&["a", "fortnight"], &["two", "weeks"], After::Anything),
    (&["half", "of", "the"], &["half", "the"], After::Word),
    (&["cut", "by", "half"], &["halved"], After::Anything),
    (&["reduced", "by", "half"], &["halved"], After::Anything),
    (&["than", "usual"], &["than", "normal"], After::Pause),
    (&["all", "along"], &["the", "whole", "time"], After::Pause),
    // Only before a clause, see `moment_ok`: "as soon as possible" stays.
    (&["as", "soon", "as", "possible"], &["as", "quickly", "as", "possible"], After::Anything),
    (&["as", "soon", "as"], &["the", "moment"], After::Word),
    // Only in a question (see `phrases`): "Is there a bank nearby?" -> "near here"; in a story
    // "nearby" is near the place told of, not the speaker.
    (&["nearby"], &["near", "here"], After::Pause),
    // "without any warning" -> "with no warning"; not after a denial, where "no" would make a
    // second one ("I can't do it with no help"), see `phrases`.
    (&["without", "any"], &["with", "no"], After::Word),
    (&["always", "forget"], &["never", "remember"], After::Anything),
    (&["always", "forgets"], &["never", "remembers"], After::Anything),
    (&["always", "forgot"], &["never", "remembered"], After::Anything),
    (&["spare", "time"], &["free", "time"], After::Anything),
    // Suited to a use: "The weather was perfect for a picnic." -> "... ideal for a picnic."
    (&["perfect", "for"], &["ideal", "for"], After::Word),
    // A skill learned: "She learned how to swim." -> "She learned to swim."
    (&["learned", "how", "to"], &["learned", "to"], After::Word),
    (&["learnt", "how", "to"], &["learnt", "to"], After::Word),
    (&["learn", "how", "to"], &["learn", "to"], After::Word),
    (&["learning", "how", "to"], &["learning", "to"], After::Word),
    (&["the", "people", "next", "door"], &["the", "neighbours"], After::Anything),
    (&["long", "time", "no", "see"], &["it's", "been", "a", "long", "time"], After::Pause),
    (&["in", "silence"], &["silently"], After::Pause),
    (&["escaped", "from"], &["got", "out", "of"], After::Word),
    (&["escape", "from"], &["get", "out", "of"], After::Word),
    (&["a", "century", "ago"], &["a", "hundred", "years", "ago"], After::Anything),
    (&["a", "hundred", "years", "ago"], &["a", "century", "ago"], After::Anything),
    // The first light of day, told either way.
    (&["at", "dawn"], &["at", "daybreak"], After::Anything),
    // A machine that stops or starts by itself: "My phone keeps turning itself off." -> "...
    // switching itself off.", either way.
    (&["turning", "itself", "off"], &["switching", "itself", "off"], After::Anything),
    (&["turned", "itself", "off"], &["switched", "itself", "off"], After::Anything),
    (&["turns", "itself", "off"], &["switches", "itself", "off"], After::Anything),
    (&["switching", "itself", "off"], &["turning", "itself", "off"], After::Anything),
    (&["switched", "itself", "off"], &["turned", "itself", "off"], After::Anything),
    (&["switches", "itself", "off"], &["turns", "itself", "off"], After::Anything),
    (&["turned", "itself", "on"], &["switched", "itself", "on"], After::Anything),
    (&["switched", "itself", "on"], &["turned", "itself", "on"], After::Anything),
    // Darkness as a time: "played until it got dark" -> "played until dark".
    (&["until", "it", "got", "dark"], &["until", "dark"], After::Anything),
    (&["until", "it", "gets", "dark"], &["until", "dark"], After::Anything),
    // The person serving in a shop, said either way.
    (&["shop", "assistant"], &["sales", "assistant"], After::Anything),
    (&["sales", "assistant"], &["shop", "assistant"], After::Anything),
    // An accent heard strongly.
    (&["a", "strong", "accent"], &["a", "heavy", "accent"], After::Anything),
    (&["a", "heavy", "accent"], &["a", "strong", "accent"], After::Anything),
    // What one likes: "too salty for my taste" <-> "for my liking".
    (&["for", "my", "taste"], &["for", "my", "liking"], After::Anything),
    (&["for", "my", "liking"], &["for", "my", "taste"], After::Anything),
    // More pay asked for: "a raise" (American) <-> "a pay rise" (British).
    (&["for", "a", "raise"], &["for", "a", "pay", "rise"], After::Anything),
    (&["for", "a", "pay", "rise"], &["for", "a", "raise"], After::Anything),
    // The best mark: "got the highest mark in the class" -> "the top mark".
    (&["the", "highest", "mark"], &["the", "top", "mark"], After::Anything),
    (&["the", "highest", "marks"], &["the", "top", "marks"], After::Anything),
    // The yearly injection: "Have you had your flu jab yet?" -> "... your flu vaccination yet?"
    (&["flu", "jab"], &["flu", "vaccination"], After::Anything),
    // A whole task done in one day: "She read the whole book in one day." -> "... in a single day."
    (&["in", "one", "day"], &["in", "a", "single", "day"], After::Anything),
    // The set or the medium, said either way.
    (&["on", "television"], &["on", "TV"], After::Anything),
    (&["on", "tv"], &["on", "television"], After::Anything),
    (&["the", "television"], &["the", "TV"], After::Anything),
    (&["the", "tv"], &["the", "television"], After::Anything),
    (&["been", "turned", "into"], &["been", "converted", "into"], After::Word),
    (&["was", "turned", "into"], &["was", "converted", "into"], After::Word),
    (&["taught", "me", "how", "to"], &["taught", "me", "to"], After::Word),
    (&["taught", "us", "how", "to"], &["taught", "us", "to"], After::Word),
    (&["taught", "him", "how", "to"], &["taught", "him", "to"], After::Word),
    (&["taught", "her", "how", "to"], &["taught", "her", "to"], After::Word),
    (&["taught", "them", "how", "to"], &["taught", "them", "to"], After::Word),
    // "It's been ages since we met." -> "It's been a long time since we met."
    (&["been", "ages"], &["been", "a", "long", "time"], After::Anything),
    (&["take", "a", "seat"], &["sit", "down"], After::Pause),
    (&["took", "a", "seat"], &["sat", "down"], After::Pause),
    (&["give", "me", "a", "call"], &["call", "me"], After::Anything),
    (&["give", "us", "a", "call"], &["call", "us"], After::Anything),
    (&["give", "me", "a", "ring"], &["call", "me"], After::Anything),
    (&["had", "a", "look", "at"], &["took", "a", "look", "at"], After::Word),
    (&["it", "doesn't", "matter"], &["it's", "not", "important"], After::Pause),
    (&["it", "does", "not", "matter"], &["it", "is", "not", "important"], After::Pause),
    (&["it's", "up", "to", "you"], &["it's", "your", "decision"], After::Pause),
    (&["it", "is", "up", "to", "you"], &["it", "is", "your", "decision"], After::Pause),
    (&["for", "good"], &["forever"], After::Pause),
    (&["after", "a", "while"], &["after", "some", "time"], After::Anything),
    // How often, as an adverb ending the clause: "I go to the gym once a week." -> "... weekly."
    (&["once", "a", "week"], &["weekly"], After::Pause),
    (&["once", "a", "month"], &["monthly"], After::Pause),
    (&["once", "a", "year"], &["yearly"], After::Pause),
    // A rest taken or had alike: "had a nap" <-> "took a nap".
    (&["had", "a", "nap"], &["took", "a", "nap"], After::Anything),
    (&["took", "a", "nap"], &["had", "a", "nap"], After::Anything),
    (&["have", "a", "nap"], &["take", "a", "nap"], After::Anything),
    (&["take", "a", "nap"], &["have", "a", "nap"], After::Anything),
    (&["had", "a", "bath"], &["took", "a", "bath"], After::Anything),
    (&["took", "a", "bath"], &["had", "a", "bath"], After::Anything),
    (&["had", "a", "rest"], &["took", "a", "rest"], After::Anything),
    (&["took", "a", "rest"], &["had", "a", "rest"], After::Anything),
    (&["all", "through", "the", "night"], &["throughout", "the", "night"], After::Anything),
    (&["all", "through", "the", "day"], &["throughout", "the", "day"], After::Anything),
    // Alone, both ways: "on my own" <-> "by myself".
    (&["on", "my", "own"], &["by", "myself"], After::Pause),
    (&["on", "his", "own"], &["by", "himself"], After::Pause),
    (&["on", "her", "own"], &["by", "herself"], After::Pause),
    (&["on", "our", "own"], &["by", "ourselves"], After::Pause),
    (&["on", "their", "own"], &["by", "themselves"], After::Pause),
    (&["by", "myself"], &["on", "my", "own"], After::Pause),
    (&["by", "himself"], &["on", "his", "own"], After::Pause),
    (&["by", "herself"], &["on", "her", "own"], After::Pause),
    (&["by", "ourselves"], &["on", "our", "own"], After::Pause),
    (&["by", "themselves"], &["on", "their", "own"], After::Pause),
    // A habit given up: "He stopped smoking last year." -> "He gave up smoking last year."
    (&["stopped", "smoking"], &["gave", "up", "smoking"], After::Anything),
    (&["stop", "smoking"], &["give", "up", "smoking"], After::Anything),
    // The best part of a time or an event: "the highlight of the term".
    (&["the", "highlight", "of"], &["the", "high", "point", "of"], After::Word),
    // Against a plan, at the end of the clause: "finished two days ahead of schedule" -> "two days
    // early", "running behind schedule" -> "running late".
    (&["ahead", "of", "schedule"], &["early"], After::Pause),
    (&["behind", "schedule"], &["late"], After::Pause),
    // A time of day told by its middle: "by the middle of the afternoon" -> "by mid-afternoon".
    (&["the", "middle", "of", "the", "afternoon"], &["mid-afternoon"], After::Anything),
    (&["the", "middle", "of", "the", "morning"], &["mid-morning"], After::Anything),
    // "fell asleep" stays: "went to sleep" says one chose to (three independent readers found
    // "He went to sleep on the sofa watching the news" off).
    // Weeds come out of the ground: "pulling up weeds" -> "pulling out weeds".
    (&["pull", "up", "weeds"], &["pull", "out", "weeds"], After::Anything),
    (&["pulls", "up", "weeds"], &["pulls", "out", "weeds"], After::Anything),
    (&["pulled", "up", "weeds"], &["pulled", "out", "weeds"], After::Anything),
    (&["pulling", "up", "weeds"], &["pulling", "out", "weeds"], After::Anything),
    (&["pull", "up", "the", "weeds"], &["pull", "out", "the", "weeds"], After::Anything),
    (&["pulled", "up", "the", "weeds"], &["pulled", "out", "the", "weeds"], After::Anything),
    (&["pulling", "up", "the", "weeds"], &["pulling", "out", "the", "weeds"], After::Anything),
    // A battery that runs down: "My phone battery dies by noon." -> "... runs out by noon."
    (&["batteries", "die"], &["batteries", "run", "out"], After::Anything),
    (&["battery", "is", "dead"], &["battery", "is", "flat"], After::Pause),
    (&["battery", "was", "dead"], &["battery", "was", "flat"], After::Pause),
    // Facing, with a road between: "the bus stop across the road from the bank" -> "opposite".
    (&["across", "the", "road", "from"], &["opposite"], After::Word),
    (&["across", "the", "street", "from"], &["opposite"], After::Word),
    // Calm kept or stayed alike.
    (&["stay", "calm"], &["keep", "calm"], After::Anything),
    (&["stayed", "calm"], &["kept", "calm"], After::Anything),
    (&["keep", "calm"], &["stay", "calm"], After::Anything),
    (&["kept", "calm"], &["stayed", "calm"], After::Anything),
    // Weather one did not escape: "was caught in the rain" -> "got caught in the rain".
    (&["was", "caught", "in", "the", "rain"], &["got", "caught", "in", "the", "rain"], After::Anything),
    (&["were", "caught", "in", "the", "rain"], &["got", "caught", "in", "the", "rain"], After::Anything),
    (&["was", "caught", "in", "a", "storm"], &["got", "caught", "in", "a", "storm"], After::Anything),
    (&["were", "caught", "in", "a", "storm"], &["got", "caught", "in", "a", "storm"], After::Anything),
    // Woken by a sound, the "up" adds nothing.
    (&["woken", "up", "by"], &["woken", "by"], After::Word),
    // A degree beyond what suits, either way: "far too long" <-> "much too long" (see `far_ok`:
    // not "far too much"); "far more" only before "than" ("far more people" is no "much more
    // people").
    (&["far", "too"], &["much", "too"], After::Word),
    (&["much", "too"], &["far", "too"], After::Word),
    (&["far", "more", "than"], &["much", "more", "than"], After::Word),
    (&["thanks", "so", "much", "for"], &["thank", "you", "so", "much", "for"], After::Word),
    (&["thank", "you", "so", "much", "for"], &["thanks", "so", "much", "for"], After::Word),
    (&["driving", "me", "mad"], &["driving", "me", "crazy"], After::Anything),
    (&["drives", "me", "mad"], &["drives", "me", "crazy"], After::Anything),
    // A precaution against the weather, ending the clause: "Take an umbrella in case it rains."
    (&["in", "case", "it", "rains"], &["in", "case", "of", "rain"], After::Pause),
    (&["the", "year", "so", "far"], &["the", "year", "to", "date"], After::Pause),
    // An offer to be asked, never to use ("feel free to use the kitchen" stays).
    (&["feel", "free", "to", "ask"], &["don't", "hesitate", "to", "ask"], After::Anything),
    (&["feel", "free", "to", "contact"], &["don't", "hesitate", "to", "contact"], After::Anything),
    (&["feel", "free", "to", "call"], &["don't", "hesitate", "to", "call"], After::Anything),
    (&["feel", "free", "to", "knock"], &["don't", "hesitate", "to", "knock"], After::Anything),
    (&["feel", "free", "to", "ring"], &["don't", "hesitate", "to", "ring"], After::Anything),
    (
        &["feel", "free", "to", "get", "in", "touch"],
        &["don't", "hesitate", "to", "get", "in", "touch"],
        After::Anything,
    ),
    // What a whole is of: "The panel was made up of three people." -> "consisted of" ("made up"
    // alone is invented or wearing make-up, and never has "of"); not back, where "will consist
    // of" would need its "be".
    (&["is", "made", "up", "of"], &["consists", "of"], After::Word),
    (&["are", "made", "up", "of"], &["consist", "of"], After::Word),
    (&["was", "made", "up", "of"], &["consisted", "of"], After::Word),
    (&["were", "made", "up", "of"], &["consisted", "of"], After::Word),
    // A vehicle's arrival: "My train gets in at six." -> "My train arrives at six."
    (&["train", "gets", "in"], &["train", "arrives"], After::Anything),
    (&["train", "got", "in"], &["train", "arrived"], After::Anything),
    (&["flight", "gets", "in"], &["flight", "arrives"], After::Anything),
    (&["flight", "got", "in"], &["flight", "arrived"], After::Anything),
    (&["bus", "gets", "in"], &["bus", "arrives"], After::Anything),
    (&["plane", "gets", "in"], &["plane", "lands"], After::Anything),
    // A deadline or an event set later, in its British form.
    (&["pushed", "back", "to"], &["put", "back", "to"], After::Word),
    // Advice, the other way from `phrasal`'s "should" -> "ought to".
    (&["ought", "to"], &["should"], After::Word),
    // Spending reduced, either way.
    (&["cut", "back", "on"], &["cut", "down", "on"], After::Word),
    (&["cut", "down", "on"], &["cut", "back", "on"], After::Word),
    (&["cutting", "back", "on"], &["cutting", "down", "on"], After::Word),
    (&["cutting", "down", "on"], &["cutting", "back", "on"], After::Word),
    (&["split", "into", "groups"], &["divided", "into", "groups"], After::Anything),
    // A little under or over an amount: "in just under four hours" -> "in slightly under four
    // hours" (see `amount_ok`: never "just under the bridge").
    (&["just", "over"], &["slightly", "over"], After::Word),
    // A length of time since it last happened, after a perfect (see `perfect_before`): "the best
    // pizza I have had in a long time" -> "for a long time", "I haven't seen her in years".
    (&["in", "a", "long", "time"], &["for", "a", "long", "time"], After::Pause),
    (&["in", "years"], &["for", "years"], After::Pause),
    (&["in", "ages"], &["for", "ages"], After::Pause),
    // A weekend told of, past or to come (see `told_weekend`): "We bought a sofa at the weekend."
    // <-> "... over the weekend."; a habit ("I play golf at the weekend") stays.
    // How much one tells or knows: "told us a lot about the castle" -> "a great deal about".
    (&["a", "lot", "about"], &["a", "great", "deal", "about"], After::Word),
    // The stretch of time up to now: "for the last few weeks" <-> "for the past few weeks" (see
    // `span_to_now`: "the last few pages of the book" stays).
    (&["the", "last"], &["the", "past"], After::Word),
    (&["the", "past"], &["the", "last"], After::Word),
    // A yearly event: "took the car in for its annual service" -> "its yearly service"; only
    // before the nouns the pass lists, where both words are used alike ("annual leave" and an
    // "annual report" are names of their own).
    // Unworn or unused: "it is still like new" -> "as good as new" (after "be", "look" or "still").
    (&["like", "new"], &["as", "good", "as", "new"], After::Pause),
    (&["thanks", "again", "for"], &["thank", "you", "again", "for"], After::Word),
    (&["thank", "you", "again", "for"], &["thanks", "again", "for"], After::Word),
    // A success at once: "passed her driving test on the first try" <-> "at the first attempt".
    (&["on", "the", "first", "try"], &["at", "the", "first", "attempt"], After::Anything),
    (&["at", "the", "first", "attempt"], &["on", "the", "first", "try"], After::Anything),
    // A night slept without waking: "The baby slept through the night." -> "... slept all night."
    (&["slept", "through", "the", "night"], &["slept", "all", "night"], After::Anything),
    (&["sleep", "through", "the", "night"], &["sleep", "all", "night"], After::Anything),
    (&["sleeps", "through", "the", "night"], &["sleeps", "all", "night"], After::Anything),
    // An email's attachment: "for your reference" -> "for reference", ending the clause.
    (&["for", "your", "reference"], &["for", "reference"], After::Pause),
    // Away from work, after "be" (see `everyday_ok`): "I will be out of the office until Monday."
    (&["out", "of", "the", "office"], &["away", "from", "the", "office"], After::Anything),
    // What starts suddenly: "A fire broke out in a warehouse." -> "A fire started in a warehouse."
    // (never "broke out of", an escape).
    (&["fire", "broke", "out"], &["fire", "started"], After::Anything),
    (&["fight", "broke", "out"], &["fight", "started"], After::Anything),
    (&["fighting", "broke", "out"], &["fighting", "started"], After::Anything),
    // A verdict opening the sentence (see `everyday_ok`): "Overall it was good value." -> "All in
    // all it was good value."; "Overall costs rose" is the adjective.
    (&["overall"], &["all", "in", "all"], After::Anything),
    // A time not yet fixed: "Are you free sometime this week?" -> "... at some point this week?"
    // (see `sometime_ok`).
    (&["sometime"], &["at", "some", "point"], After::Word),
    (&["with", "great", "care"], &["very", "carefully"], After::Anything),
    (&["with", "great", "efficiency"], &["very", "efficiently"], After::Anything),
];

/// Whether "as soon as" at `i` may be told "the moment": before a clause with its subject ("as
/// soon as she landed", "as soon as the rain stops"), not "as soon as possible" nor "as soon as
/// you can" (an effort, not an instant), and not after "not" or "just", which compare.
fn moment_ok(tokens: &[Token], i: usize, last: usize) -> bool {
    let Some(subject) = next_word(tokens, last) else { return false };
    let after = next_word(tokens, last + 2).unwrap_or_default();
    let opens_clause = crate::words::SUBJECT_PRONOUNS.contains(&subject.as_str())
        || crate::words::DETERMINERS.contains(&subject.as_str());
    opens_clause
        && !["can", "could"].contains(&after.as_str())
        && !prev_word(tokens, i).is_some_and(|p| ["not", "just", "almost", "nearly"].contains(&p.as_str()))
}

/// Whether a perfect comes before token `i` ("have had", "haven't seen", "I've been"), which
/// "in a long time" and "for a long time" both measure back from.
fn perfect_before(tokens: &[Token], i: usize) -> bool {
    tokens[..i].iter().filter(|t| t.is_word()).any(|t| {
        let w = t.text.to_lowercase().replace('’', "'");
        ["have", "has", "haven't", "hasn't", "hadn't"].contains(&w.as_str()) || w.ends_with("'ve")
    })
}

/// Whether a stretch of time up to now follows "the last" or "the past" (ending at `last`): "few",
/// a number or "couple of", then a unit of time in the plural, which ends the phrase ("the last
/// few weeks", never "the last few weeks of term", nor "the last person").
fn span_to_now(tokens: &[Token], last: usize) -> bool {
    const UNITS: &[&str] = &["days", "weeks", "months", "years", "hours", "minutes", "decades", "nights"];
    let mut k = last;
    let Some(first) = next_word(tokens, k) else { return false };
    let counted = first == "few"
        || first.bytes().all(|b| b.is_ascii_digit())
        || numbers::UNITS_BELOW_TEN.iter().chain(numbers::TENS_AND_TEENS).any(|(w, _)| *w == first);
    if first == "couple" && next_word(tokens, k + 2).as_deref() == Some("of") {
        k += 4;
    } else if counted {
        k += 2;
    } else {
        return false;
    }
    // "the past two nights" runs up to now, which a perfect tells ("has stayed with us for the
    // past two nights"); "joined us for the last two nights" may be a stay's last two.
    perfect_before(tokens, tokens.len())
        && next_word(tokens, k).is_some_and(|u| UNITS.contains(&u.as_str()))
        && next_word(tokens, k + 2).is_none_or(|n| n != "of")
}

/// The conditions of the everyday phrases of the table that depend on the words round them: "out
/// of the office" after "be", "broke out" not before
/// "of", and "overall" opening the sentence before its subject or a comma.
fn everyday_ok(from: &[&str], tokens: &[Token], i: usize, last: usize) -> bool {
    let prev = prev_word(tokens, i);
    let next = next_word(tokens, last);
    match from {
        ["out", "of", "the", "office"] => prev.is_some_and(|p| {
            ["be", "is", "am", "are", "was", "were", "been", "being"].contains(&p.as_str())
                || p.ends_with("'ll")
        }),
        [_, "broke", "out"] => next.is_none_or(|n| n != "of"),
        ["overall"] => {
            crate::tokens::is_sentence_start(tokens, i)
                && (tokens.get(i + 1).is_some_and(|t| t.text == ",")
                    || next.is_some_and(|n| {
                        crate::words::SUBJECT_PRONOUNS.contains(&n.as_str())
                            || ["the", "this", "that", "we", "our", "my", "their"].contains(&n.as_str())
                    }))
        }
        _ => true,
    }
}

/// Whether "a lot about" at `i` is how much is told or known ("told us a lot about the castle",
/// "knows a lot about cars"), which "a great deal" says too; after "talks" it may be how often
/// ("She talks a lot about her dog"), so only these verbs, with the one told between.
fn knowledge_told(tokens: &[Token], i: usize) -> bool {
    const TELLING: &[&str] = &[
        "told",
        "tell",
        "tells",
        "know",
        "knows",
        "knew",
        "learned",
        "learnt",
        "learn",
        "heard",
        "taught",
        "teach",
        "read",
        "explained",
        "showed",
        "understand",
    ];
    let before: Vec<String> =
        tokens[..i].iter().rev().filter(|t| t.is_word()).take(2).map(|t| t.text.to_lowercase()).collect();
    match before.as_slice() {
        [verb, ..] if TELLING.contains(&verb.as_str()) => true,
        [object, verb] => {
            crate::words::OBJECT_PRONOUNS.contains(&object.as_str()) && TELLING.contains(&verb.as_str())
        }
        _ => false,
    }
}

/// "always forgets" is "never remembers" only where nothing denies it already ("doesn't always
/// forget").
/// Nor where a place follows the thing forgotten ("always forget my bags in the car"): that
/// forgetting is leaving it behind, which "never remember" does not say.
fn forget_ok(tokens: &[Token], i: usize) -> bool {
    let denied = prev_word(tokens, i).is_some_and(|p| {
        let p = p.replace('’', "'");
        p == "not" || p == "never" || p.ends_with("n't")
    });
    let left_behind = tokens[i..]
        .iter()
        .filter(|t| t.is_word())
        .skip(2)
        .take(5)
        .any(|t| ["in", "at", "on"].contains(&t.text.to_lowercase().as_str()));
    !denied && !left_behind
}

/// Shortens wordy phrases and swaps "for example"/"for instance"; each phrase is one of `sites`.
pub fn phrases(tokens: Vec<Token>, sites: &mut Sites) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    'scan: while i < tokens.len() {
        if tokens[i].is_word() {
            for &(from, to, after) in PHRASES {
                if !matches_at(&tokens, i, from) {
                    continue;
                }
                let last = i + 2 * (from.len() - 1);
                let ok = match after {
                    After::Anything => true,
                    After::Word => next_word(&tokens, last).is_some(),
                    After::Pause => pause_after(&tokens, last),
                    After::PauseOrAnd => {
                        pause_after(&tokens, last) || next_word(&tokens, last).as_deref() == Some("and")
                    }
                    After::Opening => opening(&tokens, i, last),
                };
                // "every month" is an adverb ("monthly") only where it is not a preposition's
                // object ("the first Wednesday of every month").
                let object = from[0] == "every"
                    && prev_word(&tokens, i).is_some_and(|p| OBJECT_PREPOSITIONS.contains(&p.as_str()));
                // "the second half of the game": "half" is a noun there, whose "of" stays.
                let noun_half = from[0] == "half"
                    && prev_word(&tokens, i).is_some_and(|p| {
                        [
                            "the", "a", "first", "second", "other", "last", "this", "that", "each", "top",
                            "bottom", "better", "front", "back", "lower", "upper",
                        ]
                        .contains(&p.as_str())
                            || crate::words::PERSONAL_POSSESSIVES.contains(&p.as_str())
                    });
                // "finished the project on time" is no "finished it punctually": only of coming,
                // going and starting.
                let punctual = from != ["on", "time"]
                    || prev_word(&tokens, i).is_some_and(|p| {
                        [
                            "arrive", "arrives", "arrived", "leave", "leaves", "left", "start", "starts",
                            "started", "come", "comes", "came", "open", "opens", "opened",
                        ]
                        .contains(&p.as_str())
                    });
                let moment = from != ["as", "soon", "as"] || moment_ok(&tokens, i, last);
                // "far too much" would be "much too much".
                let far_ok = from != ["far", "too"]
                    || !next_word(&tokens, last)
                        .is_some_and(|n| ["much", "many", "few", "little"].contains(&n.as_str()));
                // "four loads of washing" counts loads, which "lots" cannot: only with no count
                // before it.
                let counted = from[0] == "loads"
                    && prev_word(&tokens, i).is_some_and(|p| {
                        counts(&p) || ["several", "many", "few", "more"].contains(&p.as_str())
                    });
                let forget = from[0] != "always" || forget_ok(&tokens, i);
                let asked = from != ["nearby"] || tokens.last().is_some_and(|t| t.text == "?");
                // "cut by half a day" is half of a measure, no halving.
                let halving = from.last() != Some(&"half")
                    || !next_word(&tokens, last).is_some_and(|n| ["a", "an"].contains(&n.as_str()));
                // "I've told you a hundred times" is no count: "one hundred times" would make it one.
                let counted_times = !(from == ["a", "hundred"] || from == ["a", "thousand"])
                    || next_word(&tokens, last).as_deref() != Some("times");
                // "suddenly" after its verb may also be followed by a time or a place ("The
                // weather changed suddenly in the afternoon"); before the verb it stays ("He
                // suddenly stopped").
                let ok = ok
                    || (from == ["suddenly"]
                        && next_word(&tokens, last)
                            .is_some_and(|n| ["in", "at", "on", "during"].contains(&n.as_str()))
                        && prev_word(&tokens, i).is_some_and(|p| crate::words::clearly_finite(&p, true)));
                // "sometime" before the time it falls in; "for sometime" and "sometime ago" are
                // "some time", a length.
                let sometime = from != ["sometime"]
                    || (next_word(&tokens, last).is_some_and(|n| {
                        [
                            "this", "next", "last", "today", "tomorrow", "tonight", "soon", "later", "on",
                            "in", "during", "before", "after", "around", "between", "over", "early",
                        ]
                        .contains(&n.as_str())
                    }) && prev_word(&tokens, i).is_none_or(|p| {
                        !["for", "a", "the", "in", "some", "quite", "long"].contains(&p.as_str())
                    }));
                let perfect = !(from[0] == "in"
                    && ["time", "years", "ages"].contains(from.last().unwrap_or(&"")))
                    || perfect_before(&tokens, i);
                let unused = from != ["like", "new"]
                    || prev_word(&tokens, i).is_some_and(|p| {
                        ["still", "is", "was", "are", "were", "looks", "looked", "look", "be"]
                            .contains(&p.as_str())
                    });
                let everyday = everyday_ok(from, &tokens, i, last);
                let span =
                    !(from == ["the", "last"] || from == ["the", "past"]) || span_to_now(&tokens, last);
                let told = from != ["a", "lot", "about"] || knowledge_told(&tokens, i);
                let single_denial = from != ["without", "any"]
                    || !tokens[i.saturating_sub(24)..i].iter().any(|t| t.is_word() && is_negation(&t.text));
                let ok = ok
                    && everyday
                    && single_denial
                    && unused
                    && span
                    && told
                    && perfect
                    && sometime
                    && !object
                    && !noun_half
                    && !counted
                    && punctual
                    && moment
                    && far_ok
                    && forget
                    && asked
                    && halving
                    && counted_times;
                if ok {
                    sites.put(&mut out, &tokens[i..=last], || words_like(&tokens[i].text, to));
                    i = last + 1;
                    continue 'scan;
                }
            }
            // The phrases found by a function (`Finder`): the everyday collocations first, tried
            // only from a word one of them starts with (`COLLOCATIONS`), so that most words cost one
            // lookup, then the others.
            let finders: [Finder; 24] = [
                expectation,
                waited_for,
                lets_allows,
                number_in_digits,
                habitual_day,
                been_to_place,
                run_out,
                date_form,
                delayed_by,
                while_when,
                place_compound,
                placed_thing,
                place_told_first,
                more_or_another,
                routine,
                of_ones_own,
                ordinal_birthday,
                range_of_time,
                placed_in_contest,
                money_in_words,
                decade_in_words,
                clock_in_words,
                large_sum_in_figures,
                every_second,
            ];
            let lower = tokens[i].text.to_lowercase().replace('’', "'");
            let starts = COLLOCATION_STARTS.binary_search(&lower.as_str()).is_ok();
            let found = starts
                .then(|| {
                    COLLOCATIONS
                        .iter()
                        .filter(|(first, _)| first.contains(&lower.as_str()))
                        .find_map(|(_, find)| find(&tokens, i))
                })
                .flatten();
            if let Some((len, words)) = found.or_else(|| finders.iter().find_map(|find| find(&tokens, i))) {
                sites.put(&mut out, &tokens[i..i + len], || {
                    let words: Vec<&str> = words.iter().map(String::as_str).collect();
                    words_like(&tokens[i].text, &words)
                });
                i += len;
                continue 'scan;
            }
            if let Some((len, spoken)) = spoken_time(&tokens, i)
                && tokens[i..i + len].iter().all(|t| !t.frozen)
            {
                sites.put(&mut out, &tokens[i..i + len], || {
                    let spoken: Vec<&str> = spoken.iter().map(String::as_str).collect();
                    words_like(&tokens[i].text, &spoken)
                });
                i += len;
                continue 'scan;
            }
            for from in [&["a", "lot", "of"][..], &["lots", "of"][..]] {
                if !matches_at(&tokens, i, from) {
                    continue;
                }
                let last = i + 2 * (from.len() - 1);
                let Some(next) = next_word(&tokens, last) else { continue };
                // Otherwise the other informal form, which fits any noun: "a lot of money" ->
                // "lots of money"; not before a determiner ("a lot of the blame").
                let other: &[&str] = if from[0] == "a" { &["lots", "of"] } else { &["a", "lot", "of"] };
                let q = quantifier_for(&next).map(|q| vec![q]).or_else(|| {
                    let determiner = [
                        "the", "this", "that", "these", "those", "my", "your", "his", "her", "our", "their",
                        "its", "them", "it", "us", "you",
                    ]
                    .contains(&next.as_str());
                    (!determiner).then(|| other.to_vec())
                });
                if let Some(q) = q {
                    sites.put(&mut out, &tokens[i..=last], || words_like(&tokens[i].text, &q));
                    i = last + 1;
                    continue 'scan;
                }
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// Fixed phrases whose words mean nothing alone: replacing "order" in "in order to" or "course"
/// in "of course" would be nonsense.
const FIXED: &[&[&str]] = &[
    &["in", "order"],
    // A breakdown service's name: no "roadside help".
    &["roadside", "assistance"],
    // Kitchen things named by two words: "cling film" is no "cling movie".
    &["cling", "film"],
    &["tin", "foil"],
    // A form to fill in and send back: "the reply slip" is no "answer slip".
    &["reply", "slip"],
    &["reply", "form"],
    &["reply", "card"],
    &["reply", "envelope"],
    // A contract's conditions: "the small print" is no "little print", "the fine print" no "good".
    &["small", "print"],
    &["fine", "print"],
    // Party games, by their names.
    &["pass", "the", "parcel"],
    &["musical", "chairs"],
    // "sick of waiting" is not "ill of waiting"; "a great distance" is not "a wonderful" one.
    &["sick", "of"],
    &["every", "single"],
    // "fully booked" is full, not reserved.
    &["fully", "booked"],
    &["every", "penny"],
    &["every", "now"],
    &["every", "other"],
    &["each", "single"],
    &["great", "deal"],
    &["great", "distance"],
    &["great", "number"],
    &["great", "many"],
    &["great", "majority"],
    &["of", "course"],
    &["in", "fact"],
    &["for", "example"],
    &["for", "instance"],
    &["in", "front", "of"],
    &["in", "case"],
    &["at", "first"],
    &["at", "last"],
    &["at", "once"],
    &["at", "least"],
    &["at", "all"],
    &["by", "the", "way"],
    &["in", "general"],
    &["in", "particular"],
    &["on", "purpose"],
    &["in", "spite"],
    &["all", "right"],
    &["make", "sure"],
    &["take", "place"],
    &["takes", "place"],
    &["took", "place"],
    &["take", "care"],
    &["thank", "you"],
    &["as", "well"],
    &["right", "now"],
    &["right", "away"],
    &["no", "longer"],
    &["in", "charge"],
    &["on", "time"],
    &["in", "time"],
    &["of", "all", "time"],
    &["in", "common"],
    &["in", "addition"],
    &["as", "a", "result"],
    &["as", "long", "as"],
    &["as", "soon", "as"],
    &["each", "other"],
    &["one", "another"],
    &["pay", "attention"],
    &["come", "true"],
    &["kind", "of"],
    &["sort", "of"],
    // A letter's close: "Yours truly" is no "Yours really".
    &["yours", "truly"],
];

/// Idioms, whose meaning is not that of their words, so that a synonym for one of them ("kicked
/// the pail", "a slice of cake") or a move of a part loses it. Each is the part that stays the
/// same in every use, lowercase; the word before it (the verb of "kick the bucket", "spill the
/// beans") is kept too. Sources: the idioms most often taught as everyday English in the
/// Cambridge Dictionary's idiom entries ("idiom" label) and Wiktionary's "English idioms"
/// category, checked by hand for being fixed in form, and left out where the same words are as
/// often meant literally ("on the fence", "in hot water", "in the dark"); not taken from any
/// benchmark set.
const IDIOMS: &[&[&str]] = &[
    &["the", "bucket"],
    &["cats", "and", "dogs"],
    &["out", "of", "the", "bag"],
    &["around", "the", "bush"],
    &["about", "the", "bush"],
    &["piece", "of", "cake"],
    &["under", "the", "weather"],
    &["cross", "that", "bridge"],
    &["the", "ice"],
    &["an", "arm", "and", "a", "leg"],
    &["the", "nail", "on", "the", "head"],
    &["call", "it", "a", "day"],
    &["my", "leg"],
    &["your", "leg"],
    &["his", "leg"],
    &["her", "leg"],
    &["the", "green", "light"],
    &["over", "the", "moon"],
    &["an", "eye", "on"],
    &["the", "beans"],
    &["the", "last", "straw"],
    &["once", "in", "a", "blue", "moon"],
    &["the", "ball", "rolling"],
    &["the", "same", "boat"],
    &["a", "leg"],
    &["the", "hay"],
    &["the", "road"],
    &["the", "books"],
    &["the", "point"],
    &["the", "dust"],
    &["the", "music"],
    &["the", "line"],
    &["the", "wrong", "foot"],
    &["the", "right", "foot"],
    &["cold", "feet"],
    &["a", "blind", "eye"],
    &["the", "cold", "shoulder"],
    &["the", "benefit", "of", "the", "doubt"],
    &["the", "tip", "of", "my", "tongue"],
    &["the", "tip", "of", "the", "iceberg"],
    &["a", "dime", "a", "dozen"],
    &["the", "early", "bird"],
    &["back", "to", "square", "one"],
    &["back", "to", "the", "drawing", "board"],
    &["the", "whole", "nine", "yards"],
    &["down", "to", "earth"],
    &["by", "the", "skin", "of"],
    &["in", "the", "nick", "of", "time"],
    &["on", "thin", "ice"],
    &["a", "storm", "in", "a", "teacup"],
    &["the", "elephant", "in", "the", "room"],
    &["a", "taste", "of", "your", "own", "medicine"],
    &["a", "drop", "in", "the", "ocean"],
    &["the", "best", "of", "both", "worlds"],
    &["the", "apple", "of"],
    &["a", "blessing", "in", "disguise"],
    &["no", "pain", "no", "gain"],
    &["all", "ears"],
    &["second", "nature"],
    &["red", "tape"],
    &["at", "the", "drop", "of", "a", "hat"],
    &["out", "of", "the", "blue"],
    &["out", "of", "hand"],
    // An instrument's pitch or a voice's: no "out of melody".
    &["out", "of", "tune"],
    &["in", "tune"],
    &["out", "of", "the", "woods"],
    &["off", "the", "hook"],
    &["on", "the", "ball"],
    &["on", "cloud", "nine"],
    &["through", "thick", "and", "thin"],
    &["up", "to", "scratch"],
    &["the", "wrong", "tree"],
    &["a", "long", "shot"],
    &["sixes", "and", "sevens"],
    &["the", "clock"],
    &["a", "hand"],
    &["the", "time", "of", "day"],
    &["a", "bell"],
    &["its", "course"],
    &["the", "rules"],
    &["a", "rain", "check"],
    &["the", "wheel"],
    &["the", "feathers"],
    &["a", "storm"],
    // "put on a brave face" is no "courageous face".
    &["a", "brave", "face"],
];

/// Idioms told in plain words, each form spelled out (an idiom's verb keeps its tense: "kicked
/// the bucket" -> "died"). Only where the plain words mean the same in every use of the idiom,
/// and, for a verb whose past and present are one word ("let", "hit", "beat"), only where its
/// form is certain: after "he" or "she" the past, after "to", "not" or "don't" the bare verb. The idioms are those of `IDIOMS` and its sources.
const IDIOM_MEANINGS: &[(&[&str], &[&str])] = &[
    (&["a", "piece", "of", "cake"], &["very", "easy"]),
    (&["over", "the", "moon"], &["delighted"]),
    (&["under", "the", "weather"], &["unwell"]),
    (&["an", "arm", "and", "a", "leg"], &["a", "fortune"]),
    (&["once", "in", "a", "blue", "moon"], &["very", "rarely"]),
    (&["in", "the", "nick", "of", "time"], &["just", "in", "time"]),
    (&["on", "cloud", "nine"], &["overjoyed"]),
    (&["out", "of", "the", "blue"], &["unexpectedly"]),
    (&["at", "the", "drop", "of", "a", "hat"], &["without", "hesitation"]),
    (&["back", "to", "square", "one"], &["back", "to", "the", "start"]),
    (&["in", "the", "same", "boat"], &["in", "the", "same", "situation"]),
    (&["through", "thick", "and", "thin"], &["in", "good", "times", "and", "bad"]),
    (&["kick", "the", "bucket"], &["die"]),
    (&["kicks", "the", "bucket"], &["dies"]),
    (&["kicked", "the", "bucket"], &["died"]),
    (&["raining", "cats", "and", "dogs"], &["raining", "heavily"]),
    (&["rained", "cats", "and", "dogs"], &["rained", "heavily"]),
    (&["pouring", "cats", "and", "dogs"], &["pouring", "heavily"]),
    (&["he", "let", "the", "cat", "out", "of", "the", "bag"], &["he", "gave", "away", "the", "secret"]),
    (&["she", "let", "the", "cat", "out", "of", "the", "bag"], &["she", "gave", "away", "the", "secret"]),
    (&["to", "let", "the", "cat", "out", "of", "the", "bag"], &["to", "give", "away", "the", "secret"]),
    (&["not", "let", "the", "cat", "out", "of", "the", "bag"], &["not", "give", "away", "the", "secret"]),
    (&["don't", "let", "the", "cat", "out", "of", "the", "bag"], &["don't", "give", "away", "the", "secret"]),
    (&["lets", "the", "cat", "out", "of", "the", "bag"], &["gives", "away", "the", "secret"]),
    (&["not", "beat", "around", "the", "bush"], &["not", "avoid", "the", "subject"]),
    (&["don't", "beat", "around", "the", "bush"], &["don't", "avoid", "the", "subject"]),
    (&["to", "beat", "around", "the", "bush"], &["to", "avoid", "the", "subject"]),
    (&["beating", "around", "the", "bush"], &["avoiding", "the", "subject"]),
    (&["beating", "about", "the", "bush"], &["avoiding", "the", "subject"]),
    (&["he", "hit", "the", "nail", "on", "the", "head"], &["he", "got", "it", "exactly", "right"]),
    (&["she", "hit", "the", "nail", "on", "the", "head"], &["she", "got", "it", "exactly", "right"]),
    (&["hits", "the", "nail", "on", "the", "head"], &["gets", "it", "exactly", "right"]),
    (&["call", "it", "a", "day"], &["stop", "for", "the", "day"]),
    (&["calls", "it", "a", "day"], &["stops", "for", "the", "day"]),
    (&["called", "it", "a", "day"], &["stopped", "for", "the", "day"]),
    (&["calling", "it", "a", "day"], &["stopping", "for", "the", "day"]),
    (&["pulling", "my", "leg"], &["teasing", "me"]),
    (&["pulling", "your", "leg"], &["teasing", "you"]),
    (&["pulling", "his", "leg"], &["teasing", "him"]),
    (&["pulling", "her", "leg"], &["teasing", "her"]),
    (&["pulled", "my", "leg"], &["teased", "me"]),
    (&["pulls", "my", "leg"], &["teases", "me"]),
    (&["spill", "the", "beans"], &["reveal", "the", "secret"]),
    (&["spills", "the", "beans"], &["reveals", "the", "secret"]),
    (&["spilled", "the", "beans"], &["revealed", "the", "secret"]),
    (&["spilt", "the", "beans"], &["revealed", "the", "secret"]),
    (&["turn", "a", "blind", "eye", "to"], &["ignore"]),
    (&["turns", "a", "blind", "eye", "to"], &["ignores"]),
    (&["turned", "a", "blind", "eye", "to"], &["ignored"]),
    (&["turning", "a", "blind", "eye", "to"], &["ignoring"]),
    (&["rings", "a", "bell"], &["sounds", "familiar"]),
    (&["ring", "a", "bell"], &["sound", "familiar"]),
    (&["rang", "a", "bell"], &["sounded", "familiar"]),
    (&["keep", "an", "eye", "on"], &["watch"]),
    (&["keeps", "an", "eye", "on"], &["watches"]),
    (&["kept", "an", "eye", "on"], &["watched"]),
    (&["keeping", "an", "eye", "on"], &["watching"]),
    (&["lend", "a", "hand"], &["help"]),
    (&["lent", "a", "hand"], &["helped"]),
    (&["get", "the", "ball", "rolling"], &["get", "started"]),
    (&["went", "out", "of", "their", "way", "to"], &["made", "a", "special", "effort", "to"]),
    (&["went", "out", "of", "his", "way", "to"], &["made", "a", "special", "effort", "to"]),
    (&["went", "out", "of", "her", "way", "to"], &["made", "a", "special", "effort", "to"]),
    (&["go", "out", "of", "their", "way", "to"], &["make", "a", "special", "effort", "to"]),
    (&["goes", "out", "of", "his", "way", "to"], &["makes", "a", "special", "effort", "to"]),
    (&["goes", "out", "of", "her", "way", "to"], &["makes", "a", "special", "effort", "to"]),
    (&["got", "the", "ball", "rolling"], &["got", "started"]),
];

/// Whether one of `IDIOM_MEANINGS` stands in `tokens` (its literal use aside): what tells the
/// single paraphrase that telling it in plain words is left when nothing else changed.
pub fn has_idiom_meaning(tokens: &[Token]) -> bool {
    (0..tokens.len())
        .any(|i| tokens[i].is_word() && IDIOM_MEANINGS.iter().any(|&(idiom, _)| matches_at(tokens, i, idiom)))
}

/// Tells the idioms of `IDIOM_MEANINGS` in plain words; each is one of `sites`. Runs before
/// `protect_idioms`, which then freezes the ones left.
pub fn idiom_meanings(tokens: Vec<Token>, sites: &mut Sites) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    'scan: while i < tokens.len() {
        if tokens[i].is_word() {
            for &(idiom, plain) in IDIOM_MEANINGS {
                if !matches_at(&tokens, i, idiom) {
                    continue;
                }
                let last = i + 2 * (idiom.len() - 1);
                // "sold out of the blue ones": a noun after the words makes them literal.
                let literal = next_word(&tokens, last).is_some_and(|n| {
                    ["one", "ones"].contains(&n.as_str())
                        || (crate::words::is_noun(&n)
                            && !crate::words::is_verbish(&n)
                            && !["today", "tonight", "yesterday", "tomorrow", "again", "now"]
                                .contains(&n.as_str()))
                });
                if literal {
                    continue;
                }
                sites.put(&mut out, &tokens[i..=last], || {
                    let mut new = words_like(&tokens[i].text, plain);
                    for t in &mut new {
                        t.changed = true;
                    }
                    new
                });
                i = last + 1;
                continue 'scan;
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// Verbs of the idioms whose fixed part (`IDIOMS`) is only their object: "the bucket" is an idiom
/// after "kick", not after "carry". Such a part is frozen only after one of these verbs.
const IDIOM_VERBS: &[(&[&str], &[&str])] = &[
    (&["the", "bucket"], &["kick", "kicks", "kicked", "kicking"]),
    (&["cats", "and", "dogs"], &["rain", "rains", "rained", "raining", "pour", "pours", "poured", "pouring"]),
    (&["the", "ice"], &["break", "breaks", "broke", "broken", "breaking"]),
    (&["my", "leg"], &["pull", "pulls", "pulled", "pulling"]),
    (&["your", "leg"], &["pull", "pulls", "pulled", "pulling"]),
    (&["his", "leg"], &["pull", "pulls", "pulled", "pulling"]),
    (&["her", "leg"], &["pull", "pulls", "pulled", "pulling"]),
    (&["an", "eye", "on"], &["keep", "keeps", "kept", "keeping"]),
    (&["the", "beans"], &["spill", "spills", "spilled", "spilt", "spilling"]),
    (
        &["the", "ball", "rolling"],
        &["get", "gets", "got", "getting", "set", "sets", "setting", "keep", "kept"],
    ),
    (&["the", "same", "boat"], &["in"]),
    (&["a", "leg"], &["break"]),
    (&["the", "hay"], &["hit", "hits", "hitting"]),
    (&["the", "road"], &["hit", "hits", "hitting"]),
    (&["the", "books"], &["hit", "hits", "hitting", "cook", "cooks", "cooked", "cooking"]),
    (&["the", "point"], &["miss", "misses", "missed", "missing"]),
    (&["the", "dust"], &["bite", "bites", "bit", "bitten", "biting"]),
    (&["the", "music"], &["face", "faces", "faced", "facing"]),
    (&["the", "line"], &["toe", "toes", "toed", "draw", "draws", "drew", "drawn"]),
    (&["the", "wrong", "foot"], &["on"]),
    (&["the", "right", "foot"], &["on"]),
    (&["cold", "feet"], &["get", "gets", "got", "getting", "have", "has", "had"]),
    (&["a", "blind", "eye"], &["turn", "turns", "turned", "turning"]),
    (&["the", "cold", "shoulder"], &["give", "gives", "gave", "given", "giving", "get", "got"]),
    (&["the", "wrong", "tree"], &["up"]),
    (&["the", "clock"], &["beat", "beats", "beating", "against", "round", "around"]),
    (&["a", "hand"], &["give", "gives", "gave", "given", "giving", "lend", "lends", "lent", "lending"]),
    (&["a", "bell"], &["ring", "rings", "rang", "rung", "ringing"]),
    (&["its", "course"], &["run", "runs", "ran", "running", "take", "takes", "took", "taken"]),
    (&["the", "rules"], &["bend", "bends", "bent", "bending"]),
    (&["a", "rain", "check"], &["take", "takes", "took", "taken", "taking"]),
    (&["the", "wheel"], &["reinvent", "reinvents", "reinvented", "reinventing"]),
    (&["the", "feathers"], &["ruffle", "ruffles", "ruffled", "ruffling"]),
    (&["a", "storm"], &["up"]),
    (&["the", "green", "light"], &["give", "gives", "gave", "given", "giving", "get", "gets", "got"]),
];

/// Freezes idioms whole ("It's raining cats and dogs.", "He kicked the bucket."), with the word
/// before them (the verb they need), so that no synonym or move touches them.
pub fn protect_idioms(tokens: &mut [Token]) {
    for i in 0..tokens.len() {
        if !tokens[i].is_word() {
            continue;
        }
        for idiom in IDIOMS {
            if !matches_at(tokens, i, idiom) {
                continue;
            }
            // The word before, with the space between.
            let before = (0..i).rev().find(|&k| tokens[k].is_word());
            if let Some((_, verbs)) = IDIOM_VERBS.iter().find(|(part, _)| part == idiom) {
                let ok = before.is_some_and(|k| verbs.contains(&tokens[k].text.to_lowercase().as_str()));
                if !ok {
                    continue;
                }
            }
            let start = before.unwrap_or(i);
            for t in &mut tokens[start..i + 2 * idiom.len() - 1] {
                t.frozen = true;
            }
        }
    }
}

/// Freezes the words of fixed phrases so that no later rewrite touches them.
pub fn protect_fixed_phrases(tokens: &mut [Token]) {
    for i in 0..tokens.len() {
        if !tokens[i].is_word() {
            continue;
        }
        for phrase in FIXED {
            if matches_at(tokens, i, phrase) {
                for t in &mut tokens[i..i + 2 * phrase.len() - 1] {
                    t.frozen = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{join, tokenize};

    #[test]
    fn without_any_is_with_no_but_never_a_second_denial() {
        let all = |text: &str| join(&phrases(tokenize(text), &mut Sites::new(crate::sites::Which::All)));
        assert_eq!(
            all("They cancelled it without any explanation."),
            "They cancelled it with no explanation."
        );
        assert_eq!(
            all("I couldn't have done it without any help."),
            "I couldn't have done it without any help."
        );
    }

    #[test]
    fn idioms_are_told_in_plain_words() {
        let plain =
            |text: &str| join(&idiom_meanings(tokenize(text), &mut Sites::new(crate::sites::Which::All)));
        // A noun after the words makes them literal.
        assert_eq!(plain("They've sold out of the blue ones."), "They've sold out of the blue ones.");
        assert_eq!(plain("The exam was a piece of cake."), "The exam was very easy.");
        assert_eq!(plain("He finally kicked the bucket at ninety."), "He finally died at ninety.");
        assert_eq!(plain("She let the cat out of the bag."), "She gave away the secret.");
        assert_eq!(plain("Let's call it a day."), "Let's stop for the day.");
        // "let" after "they" may be the present: left to `protect_idioms`.
        assert_eq!(plain("They let the cat out of the bag."), "They let the cat out of the bag.");
        assert_eq!(plain("He kicked the ball."), "He kicked the ball.");
    }

    fn phrased(text: &str) -> String {
        join(&phrases(tokenize(text), &mut crate::sites::Sites::new(crate::sites::Which::All)))
    }

    #[test]
    fn wholes_and_concessions() {
        assert_eq!(
            phrased("The plane landed safely despite the storm."),
            "The plane landed safely in spite of the storm."
        );
        assert_eq!(phrased("The panel was made up of three people."), "The panel consisted of three people.");
        assert_eq!(phrased("She made up a story."), "She made up a story.");
        assert_eq!(phrased("Feel free to knock."), "Don't hesitate to knock.");
        assert_eq!(phrased("Feel free to use the kitchen."), "Feel free to use the kitchen.");
        assert_eq!(phrased("The bins go out every other week."), "The bins go out every two weeks.");
        assert_eq!(phrased("Every other child had a coat."), "Every other child had a coat.");
    }

    #[test]
    fn half_of_the_is_half_the_only_before_its_noun() {
        assert_eq!(phrased("Half of the cake was gone."), "Half the cake was gone.");
        assert_eq!(
            phrased("Please transfer your half of the rent."),
            "Please transfer your half of the rent."
        );
        assert_eq!(
            phrased("We finished in the top half of the table."),
            "We finished in the top half of the table."
        );
    }

    #[test]
    fn a_phrase_cut_off_at_any_word_does_not_panic() {
        // Every finder looks ahead: each must stop at the end of the tokens, wherever the text ends.
        let texts = [
            "I haven't seen him for years and the lights went out when the power went off so we ate dinner",
            "She answered the phone and he fixed the gate and they cheered me up and the recipe calls for eggs",
            "We had a great time and I can't remember his name and she lent me a book and he hurt his knee",
            "He caught a cold and the noise kept me awake and the streets were empty and I sent you an email",
            "She looks after the baby and I hate waiting and a little more salt and the washing machine broke down",
            "They tried Thai food and spent the whole day and the lift is out of order and the printer is broken",
            "Let me know if the meeting went on for three hours and it took me ages to pick up some milk",
            "The doctor told me to set off and I caught the bus to grab a coffee and ran into an old friend",
            "I'd rather stay in when we got there and I have no idea and I feel like cooking and do the washing up",
            "Make sure you get in touch with me and sort it out and get back to you and fell over and made a decision",
            "There's no bread and we have no time so we got to the station and I'll be back and she is in charge of",
            "You'd better hang on and I liked it a lot and we had better work out and do my best to make up my mind",
            "I can't make it and I'm off to the shops as soon as I can so wait a minute and give me a minute",
        ];
        for text in texts {
            let words: Vec<&str> = text.split(' ').collect();
            for k in 1..=words.len() {
                let cut = words[..k].join(" ");
                phrased(&cut);
                phrased(&format!("{cut}."));
                crate::paraphrase::paraphrase(&cut, &crate::Options::default());
            }
        }
    }

    #[test]
    fn idioms_are_kept_whole() {
        let frozen = |text: &str| {
            let mut t = tokenize(text);
            protect_idioms(&mut t);
            t.iter().filter(|t| t.is_word() && t.frozen).map(|t| t.text.clone()).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(frozen("It was raining cats and dogs."), "raining cats and dogs");
        assert_eq!(frozen("The old man kicked the bucket."), "kicked the bucket");
        assert_eq!(frozen("Our old piano is badly out of tune."), "badly out of tune");
        assert_eq!(frozen("We ran out of time."), "");
        // "the bucket" is an idiom only after "kick", "cats and dogs" only after "rain".
        assert_eq!(frozen("She carried the bucket."), "");
        assert_eq!(frozen("I like cats and dogs."), "");
        assert_eq!(frozen("The test was a piece of cake."), "a piece of cake");
        assert_eq!(frozen("I feel under the weather."), "feel under the weather");
        assert_eq!(frozen("They pulled my leg."), "pulled my leg");
        assert_eq!(frozen("The ticket cost an arm and a leg."), "cost an arm and a leg");
    }

    #[test]
    fn tells_everyday_phrases() {
        assert_eq!(phrased("The stop is across the road from the bank."), "The stop is opposite the bank.");
        assert_eq!(phrased("Try to stay calm."), "Try to keep calm.");
        assert_eq!(phrased("Tom was caught in the rain."), "Tom got caught in the rain.");
        assert_eq!(phrased("I was woken up by a noise."), "I was woken by a noise.");
        assert_eq!(phrased("It was far too long."), "It was much too long.");
        // Never "much too much".
        assert_eq!(phrased("We ate far too much."), "We ate far too much.");
        assert_eq!(phrased("It cost far more than that."), "It cost much more than that.");
        assert_eq!(phrased("Far more people came."), "Far more people came.");
        assert_eq!(phrased("Take a coat in case it rains."), "Take a coat in case of rain.");
        assert_eq!(phrased("Pack in case it rains tomorrow."), "Pack in case it rains tomorrow.");
        assert_eq!(phrased("Feel free to ask."), "Don't hesitate to ask.");
        assert_eq!(phrased("Feel free to use the kitchen."), "Feel free to use the kitchen.");
        assert_eq!(phrased("The bins go out every other week."), "The bins go out every two weeks.");
        assert_eq!(phrased("Every other child had a coat."), "Every other child had a coat.");
        assert_eq!(phrased("My train gets in at six."), "My train arrives at six.");
        assert_eq!(phrased("The deadline was pushed back to May."), "The deadline was put back to May.");
        assert_eq!(phrased("You ought to see a doctor."), "You should see a doctor.");
        assert_eq!(phrased("We have cut back on travel."), "We have cut down on travel.");
        assert_eq!(phrased("The class was split into groups."), "The class was divided into groups.");
        assert_eq!(phrased("He runs it with great efficiency."), "He runs it very efficiently.");
    }

    #[test]
    fn shortens_phrases() {
        assert_eq!(phrased("We left early in order to win."), "We left early to win.");
        assert_eq!(phrased("In order to win, we left."), "To win, we left.");
        assert_eq!(phrased("A lot of people came."), "Many people came.");
        assert_eq!(phrased("The bank is next to the school."), "The bank is beside the school.");
        // Never without "I", which says who expected it; the past perfect says the same again.
        assert_eq!(phrased("It was harder than I expected."), "It was harder than I had expected.");
        assert_eq!(phrased("It was harder than we had hoped."), "It was harder than we hoped.");
        assert_eq!(phrased("It was harder than it looked."), "It was harder than it looked.");
        assert_eq!(phrased("I knew it all along."), "I knew it the whole time.");
        assert_eq!(phrased("The printer is jammed again."), "The printer is jammed again.");
        assert_eq!(phrased("The phone rang while I was cooking."), "The phone rang when I was cooking.");
        assert_eq!(
            phrased("When we were living in Rome, we walked a lot."),
            "While we were living in Rome, we walked a great deal."
        );
        assert_eq!(
            phrased("I remember the day when I was walking home."),
            "I remember the day when I was walking home."
        );
        assert_eq!(
            phrased("When we were going to leave, it rained."),
            "When we were going to leave, it rained."
        );
        assert_eq!(
            phrased("While she likes tea, he prefers coffee."),
            "While she likes tea, he prefers coffee."
        );
        assert_eq!(phrased("Never again."), "Never again.");
        assert_eq!(phrased("I will never do that again."), "I will never do that again.");
        assert_eq!(phrased("We had to start all over again."), "We had to start all over again.");
        assert_eq!(phrased("Call me as soon as you land."), "Call me the moment you land.");
        // Never "the moment possible": an effort, told "as quickly as possible".
        assert_eq!(phrased("Reply as soon as possible."), "Reply as quickly as possible.");
        assert_eq!(phrased("Call me as soon as you can."), "Call me as soon as you can.");
        assert_eq!(phrased("He always forgets it."), "He never remembers it.");
        assert_eq!(
            phrased("I always forget my shopping bags in the car."),
            "I always forget my shopping bags in the car."
        );
        assert_eq!(
            phrased("We played musical chairs and pass the parcel."),
            "We played musical chairs and pass the parcel."
        );
        assert_eq!(phrased("He doesn't always forget it."), "He doesn't always forget it.");
        assert_eq!(phrased("I want one as well, please."), "I want one too, please.");
        assert_eq!(phrased("She has a lot of money."), "She has lots of money.");
        assert_eq!(phrased("Lots of fresh fruit."), "A lot of fresh fruit.");
        assert_eq!(phrased("I have a lot of the blame."), "I have a lot of the blame.");
        assert_eq!(phrased("He is able to swim."), "He can swim.");
        assert_eq!(phrased("For example, this."), "For instance, this.");
        assert_eq!(phrased("Thanks for your help."), "Thank you for your help.");
        assert_eq!(phrased("Thank you for coming."), "Thanks for coming.");
        assert_eq!(phrased("At the moment of impact."), "At the moment of impact.");
        assert_eq!(phrased("Is there a cash machine near here?"), "Is there a cash machine nearby?");
        assert_eq!(phrased("He deleted the file by mistake."), "He deleted the file accidentally.");
        assert_eq!(phrased("The car stopped suddenly."), "The car stopped all of a sudden.");
        assert_eq!(phrased("He suddenly stopped."), "He suddenly stopped.");
        assert_eq!(
            phrased("The weather changed suddenly in the afternoon."),
            "The weather changed all of a sudden in the afternoon."
        );
        assert_eq!(phrased("She suddenly in a panic ran."), "She suddenly in a panic ran.");
        assert_eq!(
            phrased("She read the whole book in one day."),
            "She read the entire book in a single day."
        );
        // "eventually" is a long wait, where "in the end" is how things turned out (readers
        // found the one for the other).
        assert_eq!(phrased("In the end, we stayed at home."), "In the end, we stayed at home.");
        // "loads" after a count is the noun: "four lots of washing" is another thing.
        assert_eq!(phrased("I did four loads of washing."), "I did four loads of washing.");
        assert_eq!(phrased("We have loads of time."), "We have lots of time.");
        assert_eq!(phrased("In the end of the film he dies."), "In the end of the film he dies.");
    }

    #[test]
    fn amounts_lengths_and_weekends() {
        assert_eq!(phrased("I've told you a hundred times."), "I've told you a hundred times.");
        assert_eq!(phrased("She ran it in just under four hours."), "She ran it in just under four hours.");
        assert_eq!(phrased("It took just over a week."), "It took slightly over a week.");
        assert_eq!(phrased("The cat hid just under the bed."), "The cat hid just under the bed.");
        assert_eq!(
            phrased("It is the best pizza I have had in a long time."),
            "It is the best pizza I have had for a long time."
        );
        assert_eq!(phrased("I haven't seen her in years."), "I haven't seen her for years.");
        // No perfect: the length is not measured back.
        assert_eq!(phrased("It was the first snow in years."), "It was the first snow in years.");
        // "over the weekend" may last it, where "at the weekend" is a point in it: neither is told
        // as the other.
        assert_eq!(phrased("We bought a sofa at the weekend."), "We bought a sofa at the weekend.");
        // A habit, or a question, stays.
        assert_eq!(phrased("I usually play golf at the weekend."), "I usually play golf at the weekend.");
        assert_eq!(phrased("What did you do at the weekend?"), "What did you do at the weekend?");
        assert_eq!(
            phrased("The guide told us a lot about the castle."),
            "The guide told us a great deal about the castle."
        );
    }

    #[test]
    fn a_stretch_up_to_now_is_the_last_or_the_past() {
        assert_eq!(
            phrased("It has been hot for the last few weeks."),
            "It has been hot for the past few weeks."
        );
        assert_eq!(phrased("It has grown over the past two years."), "It has grown over the last two years.");
        // Without a perfect, "the last two nights" may be a stay's last two.
        assert_eq!(
            phrased("Grandma joined us for the last two nights."),
            "Grandma joined us for the last two nights."
        );
        assert_eq!(
            phrased("I have been ill for the last couple of days."),
            "I have been ill for the past couple of days."
        );
        // Part of a whole, or no stretch of time.
        assert_eq!(phrased("I loved the last few weeks of term."), "I loved the last few weeks of term.");
        assert_eq!(phrased("She was the last person to leave."), "She was the last person to leave.");
        assert_eq!(phrased("I read the last few pages."), "I read the last few pages.");
        // Other phrases of "the" and a word keep their own rules.
        assert_eq!(
            phrased("He fell asleep in front of the television."),
            "He fell asleep in front of the TV."
        );
    }

    #[test]
    fn yearly_things_new_things_thanks_and_ones_own() {
        assert_eq!(phrased("It is due for its annual service."), "It is due for its annual service.");
        assert_eq!(phrased("I have some annual leave."), "I have some annual leave.");
        assert_eq!(phrased("The jacket is still like new."), "The jacket is still as good as new.");
        assert_eq!(phrased("It smells like new paint."), "It smells like new paint.");
        assert_eq!(phrased("Thanks again for dinner."), "Thank you again for dinner.");
        assert_eq!(phrased("He left to start his own business."), "He left to start a business of his own.");
        // A noun after it, a list, or no verb of having before it: stays.
        for text in [
            "He wrote his own business plan.",
            "We have our own room and bathroom.",
            "She painted her own room.",
        ] {
            assert_eq!(phrased(text), text);
        }
        assert_eq!(phrased("The mayor will fix the potholes."), "The mayor will repair the potholes.");
    }

    #[test]
    fn everyday_phrases_in_their_context() {
        assert_eq!(phrased("She passed on the first try."), "She passed at the first attempt.");
        assert_eq!(phrased("The baby slept through the night."), "The baby slept all night.");
        assert_eq!(phrased("I attached it for your reference."), "I attached it for reference.");
        assert_eq!(phrased("I will be out of the office today."), "I will be away from the office today.");
        assert_eq!(phrased("He ran out of the office."), "He ran out of the office.");
        // "in line" is American: a British queue stays one.
        assert_eq!(phrased("I waited an hour in the queue."), "I waited for an hour in the queue.");
        assert_eq!(phrased("She was first in the queue."), "She was first in the queue.");
        assert_eq!(phrased("A fire broke out in a shed."), "A fire started in a shed.");
        assert_eq!(phrased("The fire broke out of the room."), "The fire broke out of the room.");
        assert_eq!(phrased("Overall it was good value."), "All in all it was good value.");
        assert_eq!(phrased("Overall costs rose."), "Overall costs rose.");
    }

    #[test]
    fn sometime_before_its_time_is_at_some_point() {
        assert_eq!(phrased("Are you free sometime this week?"), "Are you free at some point this week?");
        assert_eq!(phrased("Let's meet sometime soon."), "Let's meet at some point soon.");
        // A length misspelt, and "sometime" with no time after it, stay.
        assert_eq!(phrased("I haven't seen her for sometime."), "I haven't seen her for sometime.");
        assert_eq!(phrased("It happened sometime ago."), "It happened sometime ago.");
        assert_eq!(phrased("Come and visit sometime."), "Come and visit sometime.");
    }

    #[test]
    fn fixed_phrases_are_frozen() {
        let mut t = tokenize("Of course, in order to go.");
        protect_fixed_phrases(&mut t);
        assert!(t.iter().filter(|t| t.text == "course" || t.text == "order").all(|t| t.frozen));
        let mut t = tokenize("Read the small print first.");
        protect_fixed_phrases(&mut t);
        assert!(t.iter().filter(|t| t.text == "small").all(|t| t.frozen));
        let mut t = tokenize("Our car broke down and we called roadside assistance.");
        protect_fixed_phrases(&mut t);
        assert!(t.iter().filter(|t| t.text == "assistance").all(|t| t.frozen));
        let mut t = tokenize("The assistance of the staff was welcome.");
        protect_fixed_phrases(&mut t);
        assert!(t.iter().all(|t| !t.frozen));
    }
}
