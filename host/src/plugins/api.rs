//! The host's own, version-independent view of what crosses the plugin boundary: requests, results,
//! plugin errors and call failures. Each WIT version's bindings convert into these types, so services
//! never see generated code.

use serde::Serialize;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// The three plugin worlds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PluginKind {
    Provider,
    ChatModel,
    Metric,
}

impl PluginKind {
    pub const ALL: [PluginKind; 3] = [PluginKind::Provider, PluginKind::ChatModel, PluginKind::Metric];

    /// The name used in configuration and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            PluginKind::Provider => "provider",
            PluginKind::ChatModel => "chat-model",
            PluginKind::Metric => "metric",
        }
    }

    /// The WIT interface the component exports, without its version.
    pub fn interface(self) -> &'static str {
        match self {
            PluginKind::Provider => "parlance:plugin/provider",
            PluginKind::ChatModel => "parlance:plugin/chat-model",
            PluginKind::Metric => "parlance:plugin/metric",
        }
    }

    /// The functions of the interface a plugin of this kind exports.
    pub fn functions(self) -> &'static [&'static str] {
        match self {
            PluginKind::Provider => &["info", "paraphrase"],
            PluginKind::ChatModel => &["info", "reply"],
            PluginKind::Metric => &["info", "evaluate"],
        }
    }

    /// The WIT world, without its version.
    pub fn world(self) -> &'static str {
        match self {
            PluginKind::Provider => "provider-plugin",
            PluginKind::ChatModel => "chat-model-plugin",
            PluginKind::Metric => "metric-plugin",
        }
    }
}

impl fmt::Display for PluginKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for PluginKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        PluginKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("unknown plugin kind {s:?}; expected provider, chat-model or metric"))
    }
}

/// What `info()` told the host when the plugin was loaded.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PluginInfo {
    Provider { name: String, default_model: String },
    ChatModel { name: String },
    Metric { name: String, scores: Vec<ScoreInfo> },
}

impl PluginInfo {
    pub fn kind(&self) -> PluginKind {
        match self {
            PluginInfo::Provider { .. } => PluginKind::Provider,
            PluginInfo::ChatModel { .. } => PluginKind::ChatModel,
            PluginInfo::Metric { .. } => PluginKind::Metric,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            PluginInfo::Provider { name, .. }
            | PluginInfo::ChatModel { name }
            | PluginInfo::Metric { name, .. } => name,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreInfo {
    pub name: String,
    pub description: String,
    pub headline: bool,
}

/// A paraphrase as a provider returned it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paraphrased {
    pub text: String,
    pub model: String,
}

/// One line of the dialog so far, as the contract's `dialog-entry` carries it; borrowed from the
/// caller's dialog, so that building a request copies no text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryEntry<'a> {
    pub index: u32,
    pub name: &'a str,
    pub message: &'a str,
}

/// Everything a chat model needs to write the character's next line.
#[derive(Clone, Debug)]
pub struct ChatRequest<'a> {
    /// The dialog so far, oldest first.
    pub history: Vec<HistoryEntry<'a>>,
    pub message: String,
    pub from_name: String,
    pub to_name: String,
    pub situation: Option<String>,
    pub genre: String,
}

impl ChatRequest<'_> {
    /// The bytes of everything the request carries, a bound on its tokens.
    pub fn input_bytes(&self) -> usize {
        let history: usize = self.history.iter().map(|e| e.name.len() + e.message.len()).sum();
        history
            + self.message.len()
            + self.from_name.len()
            + self.to_name.len()
            + self.situation.as_ref().map_or(0, String::len)
            + self.genre.len()
    }
}

/// What a client asked of a chat model's generation (the contract's `generation`, since 0.1.3); each
/// `None` leaves the plugin's own setting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Generation {
    pub max_tokens: Option<u32>,
    pub temperature: Option<f32>,
    pub top_p: Option<f32>,
    pub stop: Vec<String>,
    pub seed: Option<i64>,
    pub user: Option<String>,
}

/// How an upstream frames a streamed answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    ServerSentEvents,
    Ndjson,
}

/// The upstream request a streaming chat model built, for the host to send.
#[derive(Clone, Debug)]
pub struct StreamStart {
    pub method: http::Method,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub timeout: Option<Duration>,
    pub framing: Framing,
}

/// Token counts, as the upstream reported them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Usage {
    pub input_tokens: Option<u32>,
    pub output_tokens: Option<u32>,
}

impl Usage {
    /// Both counts of two reports (one call may report per upstream request: one per candidate); a
    /// count stays unknown only while neither report has it.
    pub fn plus(self, other: Usage) -> Usage {
        let sum = |a: Option<u32>, b: Option<u32>| match (a, b) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
        };
        Usage {
            input_tokens: sum(self.input_tokens, other.input_tokens),
            output_tokens: sum(self.output_tokens, other.output_tokens),
        }
    }

    pub fn is_reported(&self) -> bool {
        self.input_tokens.is_some() || self.output_tokens.is_some()
    }
}

/// What a plugin call is made for, beyond its client: the API key that asked (when keys are required)
/// and the surface it came through. Whoever starts the work sets it around the work's future
/// ([`CallScope::run`]): the transport per request, the CLI, the job runner. A call outside any scope
/// is the library's, with no key.
#[derive(Clone, Debug)]
pub struct CallScope {
    pub key: Option<Arc<str>>,
    pub surface: &'static str,
    /// What the caller should be told beside the answer (a budget nearly spent), shared by every
    /// call of the scope; the transport puts it in a header.
    pub notice: Arc<std::sync::Mutex<Option<String>>>,
}

tokio::task_local! {
    static SCOPE: CallScope;
}

impl CallScope {
    pub const LIBRARY: &'static str = "library";

    pub fn new(surface: &'static str, key: Option<Arc<str>>) -> CallScope {
        CallScope { key, surface, notice: Arc::default() }
    }

    /// Leaves `notice` for the caller (the last one given wins).
    pub fn notify(&self, notice: String) {
        if let Ok(mut slot) = self.notice.lock() {
            *slot = Some(notice);
        }
    }

    pub fn take_notice(&self) -> Option<String> {
        self.notice.lock().ok()?.take()
    }

    /// `work` with this scope: every plugin call it makes is accounted to it.
    pub fn scoped<F: std::future::Future>(
        self,
        work: F,
    ) -> tokio::task::futures::TaskLocalFuture<CallScope, F> {
        SCOPE.scope(self, work)
    }

    /// `stream` with this scope: each of its polls runs in it, so that calls a lazy stream makes
    /// once its transport reads it (after the request's own scope has ended) are still the caller's.
    pub fn streamed<S>(self, stream: S) -> impl futures::Stream<Item = S::Item> + Send + 'static
    where
        S: futures::Stream + Send + 'static,
    {
        let mut stream = Box::pin(stream);
        futures::stream::poll_fn(move |cx| SCOPE.sync_scope(self.clone(), || stream.as_mut().poll_next(cx)))
    }

    /// The scope the current task runs in.
    pub fn current() -> CallScope {
        SCOPE.try_with(CallScope::clone).unwrap_or_else(|_| CallScope::new(CallScope::LIBRARY, None))
    }
}

/// What a call about to be made may use at most, for the [`Meter`] to hold its caller to.
#[derive(Clone, Debug)]
pub struct Admission<'a> {
    pub plugin: &'a str,
    /// The caller's client, as the services name it for their limits (`client:NAME`, `ip:ADDRESS`).
    pub client: &'a str,
    pub scope: &'a CallScope,
    /// The most it may cost, in picos; `None` for a model without a price.
    pub cost: Option<i64>,
    /// The most tokens it may use, in and out.
    pub tokens: u64,
}

/// An admitted call's hold on its caller's limits, given back with its record.
pub type Hold = Box<dyn std::any::Any + Send + Sync>;

/// One settled plugin call (a whole stream is one), as the runtime tells it to the [`Meter`].
#[derive(Debug)]
pub struct Settled<'a> {
    pub plugin: &'a str,
    pub kind: PluginKind,
    /// The model asked for, else the one the upstream named, when either is known.
    pub model: Option<&'a str>,
    pub client: &'a str,
    pub scope: CallScope,
    /// What the upstream reported over the call; a plugin with no way out of its sandbox reports
    /// zero, since nothing it does is billed.
    pub usage: Usage,
    /// What the call cost in picos of the deployment's currency, by the plugin's price for the
    /// model; `None` when the model has no price or a count it is priced by was not reported.
    pub cost: Option<i64>,
    /// The call's error code (`CallFailure::label`), `None` when it succeeded.
    pub failure: Option<&'static str>,
    /// The trace the call belongs to, when it is recorded.
    pub trace_id: Option<String>,
    /// What [`Meter::admit`] held for it.
    pub hold: Option<Hold>,
}

/// Who records what each plugin call used (the usage ledger implements it). Declared here, beside
/// [`CallObserver`], so that the runtime imports nothing of it. The call's answer waits for the
/// returned future, so that a call is on record before its caller is answered.
pub trait Meter: Send + Sync {
    /// Holds the call's caller to its limits before anything is sent upstream: `Err` with the words
    /// of the limit it would pass.
    fn admit<'a>(
        &'a self,
        call: Admission<'a>,
    ) -> futures::future::BoxFuture<'a, Result<Option<Hold>, String>>;

    fn settle(&self, call: Settled<'_>) -> Settlement;
}

/// A call's record on its way to being kept (`Sync`, since a stream holding it is shared across
/// awaits).
pub type Settlement = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + Sync + 'static>>;

/// One part of a streamed reply, as the plugin decoded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamPart {
    Delta(String),
    Model(String),
    Usage(Usage),
    /// The reply is complete, with the upstream's finish reason when it gave one.
    Done(Option<String>),
}

/// An original text and its paraphrase, to be scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub original: String,
    pub paraphrase: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    pub name: String,
    pub value: f64,
}

/// The cases of the WIT `plugin-error` variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PluginErrorKind {
    InvalidInput,
    Misconfigured,
    Unauthorized,
    RateLimited { retry_after_secs: Option<u32> },
    Timeout,
    Unavailable,
    BadResponse,
    Internal,
}

/// An error a plugin reported itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginError {
    pub kind: PluginErrorKind,
    pub message: String,
}

impl PluginError {
    pub fn new(kind: PluginErrorKind, message: impl Into<String>) -> Self {
        PluginError { kind, message: message.into() }
    }
}

impl std::error::Error for PluginError {}

impl fmt::Display for PluginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            PluginErrorKind::InvalidInput => "invalid input",
            PluginErrorKind::Misconfigured => "misconfigured",
            PluginErrorKind::Unauthorized => "upstream rejected the credentials",
            PluginErrorKind::RateLimited { .. } => "upstream rate limit",
            PluginErrorKind::Timeout => "upstream timeout",
            PluginErrorKind::Unavailable => "upstream unavailable",
            PluginErrorKind::BadResponse => "bad upstream response",
            PluginErrorKind::Internal => "internal plugin error",
        };
        write!(f, "{what}: {}", self.message)
    }
}

/// Why a plugin call produced no usable result.
#[derive(Clone, Debug, PartialEq)]
pub enum CallFailure {
    /// The plugin ran and reported an error.
    Reported(PluginError),
    /// The call ran past the plugin's time limit and was stopped.
    Deadline(Duration),
    /// The plugin tried to grow its memory past its cap.
    MemoryLimit { limit_bytes: u64 },
    /// The plugin trapped (a panic, an out-of-bounds access, `unreachable`).
    Trap(String),
    /// The plugin returned something the host cannot use.
    InvalidOutput(String),
    /// The host could not run the plugin at all (its sandbox could not be set up, or the runtime is
    /// shutting down).
    NotStarted(String),
    /// No instance slot came free in time: the plugin's share of the pool, or the pool, was full.
    Busy { what: &'static str, waited_ms: u64 },
    /// The calling client already held its whole share of the pool.
    ClientBusy { share: u32, waited_ms: u64 },
    /// The instance would have taken the live instances past the process's memory budget.
    MemoryBudget { budget_bytes: u64 },
    /// A streamed reply found its share of the open streams full: the client's own (`client`), or
    /// the chat model's or the process's.
    StreamsFull { share: u32, client: bool },
    /// The caller's key is over one of its budgets or its tokens per minute: the call was not made.
    /// The message names the limit and when it resets.
    OverBudget(String),
}

impl CallFailure {
    /// What went wrong, in one word of a closed set: the `outcome` label of `/metrics` and the
    /// `error.type` of a trace's plugin span.
    pub fn label(&self) -> &'static str {
        match self {
            CallFailure::Reported(_) => "plugin_error",
            CallFailure::OverBudget(_) => "budget_exceeded",
            CallFailure::Deadline(_) => "timeout",
            CallFailure::MemoryLimit { .. } => "memory_limit",
            CallFailure::Trap(_) => "trap",
            CallFailure::InvalidOutput(_) => "invalid_output",
            CallFailure::NotStarted(_) => "not_started",
            CallFailure::Busy { .. } => "busy",
            CallFailure::ClientBusy { .. } => "client_busy",
            CallFailure::MemoryBudget { .. } => "memory_budget",
            CallFailure::StreamsFull { .. } => "streams_full",
        }
    }
}

/// A failed plugin call: which plugin, what went wrong, and any outbound requests the sandbox refused,
/// because those usually explain the failure.
#[derive(Clone, Debug)]
pub struct CallError {
    pub plugin: String,
    pub failure: CallFailure,
    pub denied_requests: Vec<String>,
    /// What the runtime reported, for a trap: the source of the error, with its wasm backtrace.
    pub cause: Option<std::sync::Arc<wasmtime::Error>>,
}

impl std::error::Error for CallError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match (&self.failure, &self.cause) {
            (CallFailure::Reported(e), _) => Some(e),
            (_, Some(cause)) => Some(cause.as_ref().as_ref()),
            _ => None,
        }
    }
}

impl CallError {
    pub fn new(plugin: &str, failure: CallFailure) -> Self {
        CallError { plugin: plugin.to_owned(), failure, denied_requests: Vec::new(), cause: None }
    }

    /// The plugin's own error, when it reported one.
    pub fn reported(&self) -> Option<&PluginError> {
        match &self.failure {
            CallFailure::Reported(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plugin = &self.plugin;
        match &self.failure {
            CallFailure::Reported(e) => write!(f, "plugin `{plugin}` failed: {e}")?,
            // Not the plugin's doing: the words say whose limit it is.
            CallFailure::OverBudget(message) => write!(f, "{message}")?,
            CallFailure::Deadline(limit) => write!(
                f,
                "plugin `{plugin}` ran past its time limit of {} ms and was stopped",
                limit.as_millis()
            )?,
            CallFailure::MemoryLimit { limit_bytes } => write!(
                f,
                "plugin `{plugin}` tried to use more than its memory limit of {} MiB and was stopped",
                limit_bytes / (1024 * 1024)
            )?,
            CallFailure::Trap(detail) => write!(f, "plugin `{plugin}` crashed: {detail}")?,
            CallFailure::InvalidOutput(detail) => {
                write!(f, "plugin `{plugin}` returned an invalid result: {detail}")?
            }
            CallFailure::NotStarted(detail) => write!(f, "plugin `{plugin}` could not be started: {detail}")?,
            CallFailure::Busy { what, waited_ms } => write!(
                f,
                "plugin `{plugin}` is busy: no instance came free in {what} the pool within {waited_ms} ms; retry shortly"
            )?,
            CallFailure::ClientBusy { share, waited_ms } => write!(
                f,
                "this client already has {share} plugin calls in flight, its share of the pool, and none ended within {waited_ms} ms; \
                 wait for its calls to finish"
            )?,
            CallFailure::StreamsFull { share, client: true } => write!(
                f,
                "this client already has {share} streamed replies open, its share; wait for one to end"
            )?,
            CallFailure::StreamsFull { share, client: false } => write!(
                f,
                "chat model `{plugin}` cannot open another streamed reply: {share} are open, its share or the server's; retry shortly"
            )?,
            CallFailure::MemoryBudget { budget_bytes } => write!(
                f,
                "plugin `{plugin}` was stopped: the memory budget of live plugin instances ({} MiB, of which one plugin may hold half) is used up; retry shortly",
                budget_bytes >> 20
            )?,
        }
        if !self.denied_requests.is_empty() {
            write!(
                f,
                "; the sandbox refused its request to {}, which is not in its allowed_hosts",
                self.denied_requests.join(", ")
            )?;
        }
        Ok(())
    }
}

/// What the plugin runtime tells of its calls and streams, to whoever keeps count (the metrics
/// implement it). Declared here, below both, so that the runtime imports nothing of its observers.
pub trait CallObserver: Send + Sync {
    /// A plugin was loaded: its series exist from the start, at zero.
    /// `model` is the one its calls use when they name none (see `Plugin::default_model`).
    fn plugin_loaded(&self, plugin: &str, kind: PluginKind, model: Option<&str>);
    /// A call (or a whole stream, counted as one call) ended, well or not.
    fn call_ended(&self, plugin: &str, outcome: Result<(), &CallError>, elapsed: Duration);
    /// A streamed reply gave out its first text, `elapsed` after it started.
    fn first_delta(&self, plugin: &str, elapsed: Duration);
    /// A streamed reply ended: complete (`None`), or cancelled for a cause (`client`, `upstream`,
    /// `plugin`, `limit`, `deadline`).
    fn stream_ended(&self, plugin: &str, cancelled: Option<&'static str>, elapsed: Duration);
}
