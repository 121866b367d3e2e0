// `{{name}}`: a Parlance metric in JavaScript. It scores each pair by the length of the paraphrase per
// character of the original; put your own measure in `score`. `evaluate` gets the whole batch, so
// work shared by all pairs is done once per call.

const SCORE = '{{ident}}_length_ratio';

function score(pair) {
  const original = Array.from(pair.original).length;
  if (original === 0) return { tag: 'err', val: { tag: 'invalid-input', val: 'the original is empty' } };
  return { tag: 'ok', val: [{ name: SCORE, value: Array.from(pair.paraphrase).length / original }] };
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
