//! The circuit of each provider and chat model: closed while it answers; open for a cooldown once it
//! failed `failure_threshold` times within the window, so that requests skip it instead of paying its
//! timeouts; then half-open, when one request probes it and its outcome closes or reopens it. Each
//! transition is logged once and shown in `/metrics`.

use super::settings::FallbackConfig;
use super::shared::Change;
use crate::metrics::Metrics;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A circuit's state, as `/health`, `/providers` and `/metrics` show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CircuitState {
    Closed,
    Open,
    HalfOpen,
}

impl CircuitState {
    /// The value of the `circuit_state` gauge.
    pub fn gauge(self) -> i64 {
        match self {
            CircuitState::Closed => 0,
            CircuitState::HalfOpen => 1,
            CircuitState::Open => 2,
        }
    }
}

/// What a circuit says of a call about to be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Closed: call.
    Pass,
    /// The cooldown is over and this request is the one that probes.
    Probe,
    /// Open (or half-open with its probe under way) until `reopens`.
    Skip { reopens: Instant },
}

#[derive(Clone, Copy, Debug)]
enum State {
    Closed,
    Open {
        until: Instant,
    },
    /// Being probed; a probe that never reports (its request dropped) lapses at `lapses`, a cooldown
    /// after it began, and the next request probes instead.
    HalfOpen {
        lapses: Instant,
    },
}

#[derive(Debug)]
struct Circuit {
    state: State,
    /// The failures within the window, oldest first.
    failures: VecDeque<Instant>,
}

/// Every plugin's circuit, known at start: one lock per circuit, so calls of different plugins never
/// wait on each other.
pub struct Breakers {
    threshold: usize,
    window: Duration,
    cooldown: Duration,
    circuits: HashMap<String, Mutex<Circuit>>,
    metrics: Arc<Metrics>,
    /// Where this replica's openings and closings go to the others, when circuits are shared.
    others: OnceLock<tokio::sync::mpsc::UnboundedSender<Change>>,
}

impl Breakers {
    pub fn new(
        config: &FallbackConfig,
        ids: impl IntoIterator<Item = String>,
        metrics: Arc<Metrics>,
    ) -> Self {
        let circuits = ids
            .into_iter()
            .map(|id| {
                metrics.expect_circuit(&id);
                (id, Mutex::new(Circuit { state: State::Closed, failures: VecDeque::new() }))
            })
            .collect();
        Breakers {
            threshold: config.failure_threshold as usize,
            window: config.window(),
            cooldown: config.cooldown(),
            circuits,
            metrics,
            others: OnceLock::new(),
        }
    }

    /// Sends this replica's changes to `others` from now on; `false` when they already go somewhere.
    pub fn tell(&self, others: tokio::sync::mpsc::UnboundedSender<Change>) -> bool {
        self.others.set(others).is_ok()
    }

    pub fn ids(&self) -> Vec<String> {
        self.circuits.keys().cloned().collect()
    }

    /// Another replica opened `id`'s circuit, which stays open `remaining`: a closed circuit here
    /// opens for as long.
    pub fn opened_elsewhere(&self, id: &str, remaining: Duration, now: Instant) {
        let Some(mut circuit) = self.circuit(id) else { return };
        if matches!(circuit.state, State::Closed) {
            circuit.failures.clear();
            tracing::warn!(plugin = %id, "another replica opened the circuit; requests skip the plugin here too");
            self.enter(id, &mut circuit, State::Open { until: now + remaining }, false);
        }
    }

    fn circuit(&self, id: &str) -> Option<std::sync::MutexGuard<'_, Circuit>> {
        // A poisoned lock held only plain data: the state is still whole.
        self.circuits.get(id).map(|c| c.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub fn state(&self, id: &str) -> CircuitState {
        match self.circuit(id).map(|c| c.state) {
            None | Some(State::Closed) => CircuitState::Closed,
            Some(State::Open { .. }) => CircuitState::Open,
            Some(State::HalfOpen { .. }) => CircuitState::HalfOpen,
        }
    }

    /// Every circuit by plugin id, for `/health`.
    pub fn states(&self) -> std::collections::BTreeMap<String, CircuitState> {
        self.circuits.keys().map(|id| (id.clone(), self.state(id))).collect()
    }

    /// Whether `id` may be called now; an open circuit whose cooldown is over lets this call probe.
    pub fn admit(&self, id: &str, now: Instant) -> Admission {
        let Some(mut circuit) = self.circuit(id) else { return Admission::Pass };
        match circuit.state {
            State::Closed => Admission::Pass,
            State::Open { until } | State::HalfOpen { lapses: until } if now < until => {
                Admission::Skip { reopens: until }
            }
            State::Open { .. } | State::HalfOpen { .. } => {
                self.enter(id, &mut circuit, State::HalfOpen { lapses: now + self.cooldown }, true);
                Admission::Probe
            }
        }
    }

    /// Lets `id` be probed now although its cooldown is not over: every member of a chain is open and
    /// this one reopens first.
    pub fn force_probe(&self, id: &str, now: Instant) {
        if let Some(mut circuit) = self.circuit(id) {
            self.enter(id, &mut circuit, State::HalfOpen { lapses: now + self.cooldown }, true);
        }
    }

    /// The probe made no call (its request was answered from the cache), so it says nothing of the
    /// plugin's health: it is handed back, and the next request probes at once rather than skipping
    /// the plugin until the probe lapses.
    pub fn release_probe(&self, id: &str, now: Instant) {
        let Some(mut circuit) = self.circuit(id) else { return };
        if let State::HalfOpen { .. } = circuit.state {
            circuit.state = State::HalfOpen { lapses: now };
        }
    }

    pub fn succeeded(&self, id: &str) {
        let Some(mut circuit) = self.circuit(id) else { return };
        circuit.failures.clear();
        if !matches!(circuit.state, State::Closed) {
            self.enter(id, &mut circuit, State::Closed, true);
        }
    }

    pub fn failed(&self, id: &str, now: Instant) {
        let Some(mut circuit) = self.circuit(id) else { return };
        match circuit.state {
            State::Closed => {
                while circuit.failures.front().is_some_and(|t| now.duration_since(*t) > self.window) {
                    circuit.failures.pop_front();
                }
                circuit.failures.push_back(now);
                if circuit.failures.len() >= self.threshold {
                    circuit.failures.clear();
                    self.enter(id, &mut circuit, State::Open { until: now + self.cooldown }, true);
                }
            }
            // The probe failed, or a request that found it closed failed after it opened.
            State::HalfOpen { .. } | State::Open { .. } => {
                self.enter(id, &mut circuit, State::Open { until: now + self.cooldown }, true)
            }
        }
    }

    /// Sets the state, logging and showing a change of state once; an opening or closing this
    /// replica decided (`tell`) goes to the other replicas when circuits are shared.
    fn enter(&self, id: &str, circuit: &mut Circuit, state: State, tell: bool) {
        let before = std::mem::discriminant(&circuit.state);
        circuit.state = state;
        if tell && let Some(others) = self.others.get() {
            let change = match state {
                State::Open { .. } => Some(Change::Opened { id: id.to_owned(), cooldown: self.cooldown }),
                State::Closed => Some(Change::Closed { id: id.to_owned() }),
                State::HalfOpen { .. } => None,
            };
            if let Some(change) = change {
                // The receiving task lives as long as the breakers.
                let _ = others.send(change);
            }
        }
        if before == std::mem::discriminant(&state) {
            return;
        }
        let shown = match state {
            State::Closed => {
                tracing::info!(plugin = %id, "circuit closed: the plugin answered again");
                CircuitState::Closed
            }
            State::Open { .. } => {
                tracing::warn!(plugin = %id, cooldown_ms = self.cooldown.as_millis() as u64, "circuit open: requests skip the plugin until its cooldown ends");
                CircuitState::Open
            }
            State::HalfOpen { .. } => {
                tracing::info!(plugin = %id, "circuit half-open: one request probes the plugin");
                CircuitState::HalfOpen
            }
        };
        self.metrics.set_circuit(id, shown.gauge());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breakers(threshold: u32) -> Breakers {
        let config = FallbackConfig {
            failure_threshold: threshold,
            failure_window_ms: 1000,
            cooldown_ms: 5000,
            ..FallbackConfig::default()
        };
        Breakers::new(&config, ["p".to_owned()], Arc::new(Metrics::new()))
    }

    #[test]
    fn failures_within_the_window_open_the_circuit_and_older_ones_do_not_count() {
        let b = breakers(3);
        let t = Instant::now();
        b.failed("p", t);
        b.failed("p", t + Duration::from_millis(1500));
        b.failed("p", t + Duration::from_millis(2000));
        assert_eq!(b.state("p"), CircuitState::Closed, "the first failure left the window");
        b.failed("p", t + Duration::from_millis(2100));
        assert_eq!(b.state("p"), CircuitState::Open);
        let reopens = t + Duration::from_millis(2100 + 5000);
        assert_eq!(b.admit("p", t + Duration::from_millis(3000)), Admission::Skip { reopens });
    }

    #[test]
    fn after_its_cooldown_one_request_probes_and_its_outcome_decides() {
        let b = breakers(1);
        let t = Instant::now();
        b.failed("p", t);
        let after = t + Duration::from_secs(6);
        assert_eq!(b.admit("p", after), Admission::Probe);
        assert_eq!(b.state("p"), CircuitState::HalfOpen);
        assert!(matches!(b.admit("p", after), Admission::Skip { .. }), "one probe at a time");
        b.failed("p", after);
        assert_eq!(b.state("p"), CircuitState::Open, "a failed probe reopens it");

        let later = after + Duration::from_secs(6);
        assert_eq!(b.admit("p", later), Admission::Probe);
        b.succeeded("p");
        assert_eq!(b.state("p"), CircuitState::Closed);
        assert_eq!(b.admit("p", later), Admission::Pass);
    }

    #[test]
    fn a_probe_that_never_reports_lapses_and_another_request_probes() {
        let b = breakers(1);
        let t = Instant::now();
        b.failed("p", t);
        assert_eq!(b.admit("p", t + Duration::from_secs(6)), Admission::Probe);
        assert_eq!(b.admit("p", t + Duration::from_secs(12)), Admission::Probe);
    }

    #[test]
    fn a_probe_handed_back_lets_the_next_request_probe_at_once() {
        let b = breakers(1);
        let t = Instant::now();
        b.failed("p", t);
        let after = t + Duration::from_secs(6);
        assert_eq!(b.admit("p", after), Admission::Probe);
        b.release_probe("p", after);
        assert_eq!(b.state("p"), CircuitState::HalfOpen);
        assert_eq!(b.admit("p", after), Admission::Probe, "no wait for the probe to lapse");
        b.succeeded("p");
        b.release_probe("p", after);
        assert_eq!(b.admit("p", after), Admission::Pass, "a closed circuit stays closed");
    }

    #[test]
    fn a_circuit_opened_elsewhere_opens_here_for_what_remains() {
        let b = breakers(5);
        let t = Instant::now();
        b.opened_elsewhere("p", Duration::from_secs(2), t);
        assert_eq!(
            b.admit("p", t + Duration::from_secs(1)),
            Admission::Skip { reopens: t + Duration::from_secs(2) }
        );
        assert_eq!(b.admit("p", t + Duration::from_secs(3)), Admission::Probe);
        assert_eq!(b.admit("unknown", t), Admission::Pass, "a plugin without a circuit is never skipped");
    }
}
