// The playground: one page over the REST API of the server that serves it (same origin, every request
// under the page's content security policy). Paraphrase candidates with their scores as bars, two
// providers side by side, a pair evaluated, a streamed chat with the character, and the caller's usage
// (spend, or tokens, per day and per model) as bar charts.

const $ = (id) => document.getElementById(id);

/** An API error as the server words it: `{"error": {"code", "message"}}` and the status. */
class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  toString() {
    return `${this.status ? `${this.status} ` : ""}${this.code}: ${this.message}`;
  }
}

/** The headers every call carries: the API key, when one is typed in. */
function headers(extra = {}) {
  const key = $("api-key").value.trim();
  return key ? { ...extra, Authorization: `Bearer ${key}` } : extra;
}

/** The error a failed response carries, or its status when the body is not the API's error shape. */
async function failure(response) {
  const text = await response.text();
  try {
    const { error } = JSON.parse(text);
    if (error && error.code) return new ApiError(response.status, error.code, error.message ?? "");
  } catch {
    // Not JSON: the status and the text say what there is to say.
  }
  return new ApiError(response.status, `http_${response.status}`, text || response.statusText);
}

async function send(path, init) {
  try {
    return await fetch(path, init);
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError(0, "network_error", `the server could not be reached (${e.message})`);
  }
}

async function call(method, path, body) {
  const init = { method, headers: headers(body === undefined ? {} : { "Content-Type": "application/json" }) };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await send(path, init);
  if (!response.ok) throw await failure(response);
  return response.json();
}

function showError(id, error) {
  const element = $(id);
  element.textContent = error ? String(error) : "";
  element.hidden = !error;
}

/** Runs `work` when `form` is submitted, with its buttons off meanwhile and any failure shown in `errorId`. */
function onSubmit(formId, errorId, work) {
  const form = $(formId);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(errorId, null);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await work();
    } catch (e) {
      showError(errorId, e);
    } finally {
      button.disabled = false;
    }
  });
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---- Providers -------------------------------------------------------------------------------------

async function loadProviders() {
  showError("global-error", null);
  let list;
  try {
    list = await call("GET", "/providers");
  } catch (e) {
    showError("global-error", e);
    list = { providers: [] };
  }
  const fieldset = $("providers");
  fieldset.replaceChildren(element("legend", "", "Providers"));
  for (const provider of list.providers) {
    const box = element("input");
    box.type = "checkbox";
    box.value = provider.id;
    box.checked = provider.default && provider.available;
    box.disabled = !provider.available;
    const label = element("label", provider.available ? "" : "unavailable");
    label.title = provider.available ? provider.name : `not available: ${provider.unavailable_reason ?? "not configured"}`;
    label.append(box, ` ${provider.id} `, element("span", "muted", provider.default_model));
    fieldset.append(label);
  }
  if (list.providers.length === 0) fieldset.append(element("span", "muted", "no providers"));
  // Semantic similarity is asked for only where the server can compute it: it lists the score only
  // with an embedding backend, and a box ticked without one would only fetch a warning.
  const semantic = (list.scores ?? []).includes("semantic_similarity");
  $("semantic").checked = semantic;
  $("semantic").parentElement.title = semantic
    ? ""
    : "this server has no embedding backend (scripts/fetch-model.sh, or [embeddings] model_dir or url)";
  const available = list.providers.filter((p) => p.available).map((p) => p.id);
  for (const [id, pick] of [["compare-a", 0], ["compare-b", 1]]) {
    const select = $(id);
    select.replaceChildren(...available.map((p) => new Option(p, p)));
    select.value = available[Math.min(pick, available.length - 1)] ?? "";
  }
}

function checkedProviders() {
  return [...$("providers").querySelectorAll("input:checked")].map((box) => box.value);
}

// ---- Paraphrase candidates --------------------------------------------------------------------------

/** The request for the text and selection above, from `providerIds` (none: the server's default). */
function paraphraseRequest(providerIds) {
  const body = { text: $("text").value };
  if (providerIds.length === 1) body.provider = providerIds[0];
  if (providerIds.length > 1) body.providers = providerIds;
  const count = $("count").value.trim();
  // Sent as typed unless it is the default, so that the server, which knows its maximum, judges it.
  if (count !== "1") body.candidates = count === "" ? null : Number(count);
  const rankBy = $("rank-by").value.trim();
  if (rankBy) body.rank_by = rankBy;
  const floor = $("floor-name").value.trim();
  if (floor) body.min_scores = { [floor]: $("floor-value").value === "" ? null : Number($("floor-value").value) };
  return body;
}

/**
 * The candidates of an answer. A server or request without candidates answers one paraphrase: it
 * becomes the one candidate, scored by `/evaluate`, and goes through the same rendering as a list.
 */
async function candidatesOf(answer) {
  // The server's warnings say, among other things, why fewer candidates came back than were asked for.
  if (Array.isArray(answer.candidates)) return { candidates: answer.candidates, warnings: answer.warnings ?? [] };
  const scored = await evaluate(answer.original, answer.paraphrase);
  const candidate = {
    text: answer.paraphrase,
    provider: answer.provider,
    model: answer.model,
    scores: scored.evaluation,
    passed: null,
  };
  return { candidates: [candidate], warnings: scored.warnings };
}

async function paraphrase(providerIds) {
  const answer = await call("POST", "/paraphrase", paraphraseRequest(providerIds));
  return { answer, ...(await candidatesOf(answer)) };
}

function renderCandidates(container, { answer, candidates, warnings }) {
  const facts = [`${candidates.length} candidate${candidates.length === 1 ? "" : "s"}`];
  if (typeof answer.requested === "number") facts[0] += ` of ${answer.requested} asked for`;
  if (typeof answer.written === "number") facts.push(`${answer.written} written`);
  if (!Array.isArray(answer.candidates)) facts.push("scored by /evaluate");
  if (answer.removed) {
    facts.push(`removed: ${answer.removed.duplicates ?? 0} duplicate(s), ${answer.removed.unchanged ?? 0} unchanged`);
  }
  if (answer.cached) facts.push("cached");
  if (answer.unchanged) facts.push("the best one is the original unchanged");
  const list = element("ol", "candidates");
  candidates.forEach((candidate, index) => {
    const verdict = candidate.passed === true ? "passed" : candidate.passed === false ? "failed" : "";
    const item = element("li", `candidate ${verdict}`.trim());
    const meta = element("p", "meta");
    meta.append(element("span", "rank", `#${index + 1}`), `${candidate.provider} · ${candidate.model}`);
    if (verdict) meta.append(` · ${verdict === "passed" ? "passed the floors" : "below a floor"}`);
    item.append(meta, element("p", "text", candidate.text), scoreBars(candidate.scores));
    list.append(item);
  });
  container.replaceChildren(element("p", "summary", facts.join(" · ")), list);
  for (const warning of warnings) container.append(element("p", "warning", warning));
}

/**
 * A full bar's value for each score: sacreBLEU's scores (the bundled `bleu` metric) are on 0..100,
 * every other bundled score on 0..1, which is also what a score not named here is drawn on.
 */
const FULL_BAR = { bleu: 100, chrf: 100, ter: 100 };

/** Scores as bars, the value printed beside each; names seen here are offered as rankings and floors. */
function scoreBars(scores) {
  const list = element("dl", "scores");
  const names = $("score-names");
  for (const [name, value] of Object.entries(scores ?? {})) {
    if (typeof value !== "number") continue;
    const bar = element("span", name === "overall_score" ? "bar overall" : "bar");
    const fill = element("span");
    fill.style.width = `${Math.max(0, Math.min(1, value / (FULL_BAR[name] ?? 1))) * 100}%`;
    bar.append(fill);
    const cell = element("dd");
    cell.append(bar);
    const row = [element("dt", "", name), cell, element("dd", "value", value.toFixed(3))];
    row[0].dataset.score = name;
    row[2].dataset.score = name;
    list.append(...row);
    if (name !== "overall_score" && ![...names.options].some((o) => o.value === name)) names.append(new Option(name));
  }
  return list;
}

onSubmit("paraphrase-form", "paraphrase-error", async () => {
  $("paraphrase-result").replaceChildren();
  renderCandidates($("paraphrase-result"), await paraphrase(checkedProviders()));
});

onSubmit("compare-form", "compare-error", async () => {
  const sides = [
    [$("compare-a").value, $("compare-left")],
    [$("compare-b").value, $("compare-right")],
  ];
  for (const [, column] of sides) column.replaceChildren(element("p", "muted", "waiting…"));
  // Each side stands alone: one provider's failure is shown in its column beside the other's answer.
  await Promise.all(
    sides.map(async ([provider, column]) => {
      const title = element("h3", "summary", provider || "(no provider)");
      try {
        renderCandidates(column, await paraphrase(provider ? [provider] : []));
        column.prepend(title);
      } catch (e) {
        const error = element("p", "error", String(e));
        error.setAttribute("role", "alert");
        column.replaceChildren(title, error);
      }
    }),
  );
});

// ---- Evaluate ------------------------------------------------------------------------------------------

function evaluate(original, paraphrase) {
  return call("POST", "/evaluate", { original, paraphrase, include_semantic: $("semantic").checked });
}

onSubmit("evaluate-form", "evaluate-error", async () => {
  $("evaluate-result").replaceChildren();
  const scored = await evaluate($("eval-original").value, $("eval-paraphrase").value);
  const weights = Object.entries(scored.weights)
    .map(([name, weight]) => `${name} ${weight}`)
    .join(", ");
  $("evaluate-result").append(scoreBars(scored.evaluation), element("p", "muted", `overall weights: ${weights}`));
  for (const warning of scored.warnings) $("evaluate-result").append(element("p", "muted", warning));
});

// ---- Chat ------------------------------------------------------------------------------------------------

/** The events of a server-sent event stream, as `{type, data}`; comments (keep-alives) are skipped. */
async function* serverSentEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = (buffer + value).replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") type = text;
        if (field === "data") data.push(text);
      }
      if (data.length > 0) yield { type, data: data.join("\n") };
    }
  }
}

function bubble(className, who, text) {
  const item = element("li", className);
  item.append(element("span", "who", who), element("span", "body", text));
  $("chat-log").append(item);
  return item;
}

let stopChat = null;
$("chat-stop").addEventListener("click", () => stopChat?.abort());

onSubmit("chat-form", "chat-error", async () => {
  const character = $("chat-character").value;
  const body = { user_id: $("chat-user").value, message: $("chat-message").value, to_name: character };
  bubble("user", "You", body.message);
  const reply = bubble("character streaming", character, "");
  const text = reply.querySelector(".body");
  const note = (words) => reply.append(element("span", "note", words));
  const controller = new AbortController();
  stopChat = controller;
  $("chat-stop").disabled = false;
  try {
    const response = await send("/v1/waifu", {
      method: "POST",
      headers: headers({ "Content-Type": "application/json", Accept: "text/event-stream" }),
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok) {
      reply.remove();
      throw await failure(response);
    }
    for await (const event of serverSentEvents(response.body)) {
      const data = JSON.parse(event.data);
      if (event.type === "delta") {
        text.textContent += data.text;
        if (data.fallback) reply.classList.add("fallback");
      } else if (event.type === "done") {
        text.textContent = data.response;
        const facts = [data.indices?.length ? `stored as entries ${data.indices.join(", ")}` : "not stored"];
        if (data.fallback) facts.push("the model failed: the default response");
        if (data.model) facts.push(data.model);
        if (data.finish_reason) facts.push(`finish: ${data.finish_reason}`);
        note(facts.join(" · "));
        return;
      } else if (event.type === "error") {
        reply.classList.add("cut");
        note("cut off: not stored");
        throw new ApiError(0, data.error?.code ?? "stream_error", data.error?.message ?? event.data);
      }
    }
    reply.classList.add("cut");
    note("cut off: not stored");
    throw new ApiError(0, "stream_ended", "the stream ended before the reply was complete");
  } catch (e) {
    if (e.name !== "AbortError") throw e;
    reply.classList.add("cut");
    note("stopped: not stored");
  } finally {
    reply.classList.remove("streaming");
    $("chat-stop").disabled = true;
    stopChat = null;
  }
});

// ---- Usage -------------------------------------------------------------------------------------------------

/** Money comes as exact decimal strings; it is summed in whole picos (10⁻¹² of the currency), as on the server. */
const PICO_DIGITS = 12;

function toPicos(amount) {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole + fraction.padEnd(PICO_DIGITS, "0").slice(0, PICO_DIGITS));
}

function fromPicos(picos) {
  const digits = picos.toString().padStart(PICO_DIGITS + 1, "0");
  const fraction = digits.slice(-PICO_DIGITS).replace(/0+$/, "");
  return fraction ? `${digits.slice(0, -PICO_DIGITS)}.${fraction}` : digits.slice(0, -PICO_DIGITS);
}

const count = (n) => n.toLocaleString("en-US");
const plural = (n, word) => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

/** The first day of the last `days` days, today (UTC) the last of them, as `from` takes a date. */
function firstDay(days) {
  return new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}

/** The report's groups summed by one of its dimensions: calls, tokens in and out, and the exact spend. */
function sumBy(groups, dimension) {
  const sums = new Map();
  for (const group of groups) {
    const name = group.group[dimension] ?? "";
    const sum = sums.get(name) ?? { name, calls: 0, tokens: 0, picos: null };
    sum.calls += group.calls;
    sum.tokens += group.input_tokens + group.output_tokens;
    if (group.cost !== null) sum.picos = (sum.picos ?? 0n) + toPicos(group.cost);
    sums.set(name, sum);
  }
  return [...sums.values()];
}

/**
 * A bar chart as a table: the title its caption, a row per entry with its name, a bar as long as its
 * value beside the largest, the value in figures and the calls. The bars only repeat what the text says.
 */
function barChart(id, title, heading, entries, spend) {
  const value = (entry) => (spend ? (entry.picos === null ? 0 : Number(fromPicos(entry.picos))) : entry.tokens);
  const largest = Math.max(0, ...entries.map(value));
  const table = element("table", "chart");
  table.dataset.chart = id;
  table.createCaption().textContent = title;
  const head = table.createTHead().insertRow();
  const columns = [[heading, ""], ["", "bar-cell"], [spend ? "Spend" : "Tokens", "value"], ["Calls", "calls"]];
  head.append(...columns.map(([text, className]) => element("th", className, text)));
  head.cells[1].setAttribute("aria-hidden", "true");
  const body = table.createTBody();
  for (const entry of entries) {
    const row = body.insertRow();
    row.dataset.name = entry.name;
    const name = element("th", "", entry.label);
    name.scope = "row";
    const bar = element("span", "bar");
    const fill = element("span");
    fill.style.width = `${largest > 0 ? (value(entry) / largest) * 100 : 0}%`;
    bar.append(fill);
    const cell = element("td", "bar-cell");
    cell.setAttribute("aria-hidden", "true");
    cell.append(bar);
    const figure = spend ? (entry.picos === null ? "no price" : fromPicos(entry.picos)) : count(entry.tokens);
    row.append(name, cell, element("td", "value", figure), element("td", "calls", count(entry.calls)));
  }
  return table;
}

function renderUsage(container, report) {
  const { total, currency } = report;
  const [from, to] = [report.from, report.to].map((at) => at.slice(0, 16).replace("T", " "));
  const period = element("p", "summary", `${from} to ${to} UTC`);
  if (total.calls === 0) {
    container.replaceChildren(period, element("p", "empty", "No plugin calls in this period."));
    return;
  }
  // Spend when anything cost anything; else tokens, which unpriced and free calls still count.
  const spend = total.cost !== null && toPicos(total.cost) > 0n;
  container.dataset.measure = spend ? "spend" : "tokens";
  const notes = [];
  if (!spend) {
    notes.push(
      total.cost === null
        ? "No call in this period has a price, so the charts show tokens (in + out) instead of spend."
        : `The priced calls came to 0 ${currency}, so the charts show tokens (in + out) instead of spend.`,
    );
  } else if (total.unpriced_calls > 0) {
    notes.push(`${plural(total.unpriced_calls, "call")} had no price and are not in the spend.`);
  }
  const measure = spend ? `Spend (${currency})` : "Tokens";
  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const amount = (entry) => (spend ? (entry.picos ?? 0n) : BigInt(entry.tokens));
  const days = sumBy(report.groups, "day").sort(byName);
  // The models by what they spent or used, the most first.
  const models = sumBy(report.groups, "model").sort((a, b) =>
    amount(a) === amount(b) ? byName(a, b) : amount(a) > amount(b) ? -1 : 1,
  );
  for (const day of days) day.label = day.name;
  for (const model of models) model.label = model.name || "(no model)";
  const charts = element("div", "columns");
  charts.append(
    barChart("day", `${measure} per day`, "Day", days, spend),
    barChart("model", `${measure} per model`, "Model", models, spend),
  );

  const totals = element("table", "totals");
  totals.createCaption().textContent = "Totals";
  const cost = total.cost === null ? "no priced calls" : `${total.cost} ${currency}`;
  for (const [key, label, text] of [
    ["calls", "Calls", count(total.calls)],
    ["failed_calls", "Failed calls", count(total.failed_calls)],
    ["input_tokens", "Input tokens", count(total.input_tokens)],
    ["output_tokens", "Output tokens", count(total.output_tokens)],
    ["cost", "Spend", cost],
    ["unpriced_calls", "Calls without a price", count(total.unpriced_calls)],
    ["unreported_calls", "Calls without a token count", count(total.unreported_calls)],
  ]) {
    const row = totals.insertRow();
    row.dataset.total = key;
    const name = element("th", "", label);
    name.scope = "row";
    row.append(name, element("td", "", text));
  }
  container.replaceChildren(period, ...notes.map((note) => element("p", "muted note", note)), charts, totals);
}

let usageAsked = 0;

/** The usage of the period picked; an answer overtaken by a newer request is dropped. */
async function showUsage() {
  const asked = ++usageAsked;
  const result = $("usage-result");
  delete result.dataset.measure;
  if (document.body.dataset.apiKeys === "required" && !$("api-key").value.trim()) {
    result.replaceChildren(element("p", "muted", "Type an API key above to see its usage."));
    return;
  }
  const query = new URLSearchParams({ from: firstDay(Number($("usage-days").value)), group_by: "day,model" });
  try {
    const report = await call("GET", `/usage?${query}`);
    if (asked === usageAsked) renderUsage(result, report);
  } catch (e) {
    if (asked !== usageAsked) return;
    result.replaceChildren();
    throw e;
  }
}

function refreshUsage() {
  showError("usage-error", null);
  showUsage().catch((e) => showError("usage-error", e));
}

$("usage-form").addEventListener("submit", (event) => {
  event.preventDefault();
  refreshUsage();
});
$("usage-days").addEventListener("change", refreshUsage);

// ---- Start -------------------------------------------------------------------------------------------------

if (document.body.dataset.apiKeys === "required") $("key-field").hidden = false;
$("api-key").addEventListener("change", () => {
  loadProviders();
  refreshUsage();
});
loadProviders();
refreshUsage();
