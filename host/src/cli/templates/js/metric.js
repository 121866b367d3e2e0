// `{{name}}`: a Parlance metric in JavaScript. It scores each pair by the length of the paraphrase per
// character of the original; put your own measure in `score`. `evaluate` gets the whole batch, so
// work shared by all pairs is done once per call.

const SCORE = '{{ident}}_length_ratio';

// Characters (code points) in a string. The engine is an interpreter, so native string and regular
// expression methods are far cheaper than building arrays: `Array.from(text).length` made a 100-pair
// call about eight times slower.
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
function characters(text) {
  const pairs = text.match(SURROGATE_PAIR);
  return text.length - (pairs ? pairs.length : 0);
}

function score(pair) {
  const original = characters(pair.original);
  if (original === 0) return { tag: 'err', val: { tag: 'invalid-input', val: 'the original is empty' } };
  return { tag: 'ok', val: [{ name: SCORE, value: characters(pair.paraphrase) / original }] };
}

export const metric = {
  info() {
    return {
      name: '{{name}}',
      scores: [{ name: SCORE, description: 'Characters in the paraphrase per character of the original.', headline: true }],
    };
  },

  evaluate(pairs) {
    return pairs.map(score);
  },
};
