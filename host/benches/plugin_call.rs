//! Plugin call overhead: a fresh instance from the pool plus one call of a trivial export, the same
//! call in the instance the client's previous call left (`[runtime] reuse_instances`), and the same
//! Rust function called natively. Prints medians and the ratios, for two components: the echo
//! fixture, the smallest well-behaved provider (it reverses the words of its input and reads one
//! setting through the host; 14 lowered imports), and the hostile fixture's `echo` behaviour, the
//! same work in a component whose other behaviours use `std::fs`, `std::net` and `std::env` and so
//! link 91 lowered imports, every one resolved again for a fresh instance. Beside them, wasmtime
//! alone: the same engine settings and component, linked with WASI, with wasi:http (refusing every
//! request) and with the plugin contract's host interfaces as traps, a store that holds only WASI's
//! state, a fresh instance made and dropped per iteration with no call: the part of a fresh call
//! that any host built on wasmtime pays for the component.
//!
//! Run: `cargo bench -p parlance --bench plugin_call`

use parlance::plugins::api::PluginKind;
use parlance::plugins::spec::{ComponentSource, PluginSpec};
use parlance::plugins::{HOST_CLIENT, PluginHost, RuntimeConfig};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn echo(text: &str) -> String {
    text.split_whitespace().rev().collect::<Vec<_>>().join(" ")
}

/// Median and 90th percentile of per-iteration times over `rounds` rounds of `per_round` iterations.
fn measure(rounds: usize, per_round: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut samples: Vec<Duration> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_round {
                f();
            }
            start.elapsed() / per_round as u32
        })
        .collect();
    samples.sort();
    (samples[samples.len() / 2], samples[samples.len() * 9 / 10])
}

/// The process's minor and major page faults so far (`/proc/self/stat`, fields 10 and 12).
fn page_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis, which may itself hold spaces.
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    field(10) + field(12)
}

/// Median and 90th percentile of one paraphrase call of the echo fixture through `host`, and the
/// page faults per call over the measured calls, where a virtual machine pays for a fresh instance.
fn time_calls(runtime: &tokio::runtime::Runtime, host: &PluginHost) -> (Duration, Duration, f64) {
    let plugin = host.get("echo").unwrap();
    // Warm the pool's slot and the CPU caches before measuring.
    for _ in 0..1000 {
        runtime.block_on(host.paraphrase(plugin, HOST_CLIENT, "a b c", "hostile")).unwrap();
    }
    let faults = page_faults();
    let (p50, p90) = measure(200, 50, || {
        black_box(
            runtime.block_on(host.paraphrase(plugin, HOST_CLIENT, black_box("a b c"), "hostile")).unwrap(),
        );
    });
    (p50, p90, (page_faults() - faults) as f64 / (200.0 * 50.0))
}

/// A store's state with nothing but WASI's.
struct Bare {
    wasi: wasmtime_wasi::WasiCtx,
    http: wasmtime_wasi_http::WasiHttpCtx,
    hooks: Refuse,
    table: wasmtime::component::ResourceTable,
}

impl wasmtime_wasi::WasiView for Bare {
    fn ctx(&mut self) -> wasmtime_wasi::WasiCtxView<'_> {
        wasmtime_wasi::WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

/// Outbound HTTP that refuses every request: the bare instance makes none, but wasi:http is linked
/// as the host links it, so that the component's imports resolve to the same kind of functions.
struct Refuse;

type Sent = Box<dyn std::future::Future<Output = Result<(), wasmtime_wasi_http::Error>> + Send>;

impl wasmtime_wasi_http::WasiHttpHooks for Refuse {
    fn send_request(
        &mut self,
        _request: http::Request<wasmtime_wasi_http::WasiBody>,
        _options: Option<wasmtime_wasi_http::RequestOptions>,
        _fut: Sent,
    ) -> Box<
        dyn std::future::Future<
                Output = Result<
                    (http::Response<wasmtime_wasi_http::WasiBody>, Sent),
                    wasmtime_wasi_http::Error,
                >,
            > + Send,
    > {
        Box::new(async { Err(wasmtime_wasi_http::Error::HttpRequestDenied) })
    }
}

impl wasmtime_wasi_http::WasiHttpView for Bare {
    fn http(&mut self) -> wasmtime_wasi_http::WasiHttpCtxView<'_> {
        wasmtime_wasi_http::WasiHttpCtxView {
            ctx: &mut self.http,
            table: &mut self.table,
            hooks: &mut self.hooks,
        }
    }
}

/// Median and 90th percentile of a fresh instance of `fixture` made and dropped by wasmtime alone, on
/// an engine with Parlance's settings (`Runtime::new`), and its page faults per instance.
fn time_bare(
    runtime: &tokio::runtime::Runtime,
    settings: &RuntimeConfig,
    fixture: &Path,
) -> (Duration, Duration, f64) {
    use wasmtime::component::types::ComponentItem;
    use wasmtime::component::{Component, Linker, ResourceTable};
    let owner = parlance::plugins::Runtime::new(settings, 64 << 20).unwrap();
    let engine = owner.engine();
    let component = Component::from_file(engine, fixture).unwrap();
    let mut linker = Linker::<Bare>::new(engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker).unwrap();
    wasmtime_wasi_http::p2::add_only_http_to_linker_async(&mut linker).unwrap();
    // The plugin contract's host interfaces as traps, function by function: wasmtime's own
    // `define_unknown_imports_as_traps` matches names exactly, so it would shadow WASI's interfaces
    // that the linker serves under another 0.2 patch version.
    for (name, item) in component.component_type().imports(engine) {
        let (false, ComponentItem::ComponentInstance(instance)) = (name.starts_with("wasi:"), item.ty) else {
            continue;
        };
        let mut stubs = linker.instance(name).unwrap();
        for (export, item) in instance.exports(engine) {
            match item.ty {
                ComponentItem::ComponentFunc(_) => stubs
                    .func_new(export, |_, _, _, _| {
                        Err(wasmtime::format_err!("not linked in the bare baseline"))
                    })
                    .unwrap(),
                ComponentItem::Resource(_) => stubs
                    .resource(export, wasmtime::component::ResourceType::host::<Refuse>(), |_, _| Ok(()))
                    .unwrap(),
                _ => {}
            }
        }
    }
    let pre = linker.instantiate_pre(&component).unwrap();
    let once = || {
        let state = Bare {
            wasi: wasmtime_wasi::WasiCtx::builder().build(),
            http: wasmtime_wasi_http::WasiHttpCtx::new(),
            hooks: Refuse,
            table: ResourceTable::new(),
        };
        let mut store = wasmtime::Store::new(engine, state);
        store.set_epoch_deadline(1 << 20);
        black_box(runtime.block_on(pre.instantiate_async(&mut store)).unwrap());
    };
    for _ in 0..1000 {
        once();
    }
    let faults = page_faults();
    let (p50, p90) = measure(200, 50, once);
    (p50, p90, (page_faults() - faults) as f64 / (200.0 * 50.0))
}

/// The figures of one component: fresh, kept and wasmtime alone, each the median of 3 runs.
fn time_component(
    runtime: &tokio::runtime::Runtime,
    cache: &Path,
    fixture: &Path,
    behaviour: Option<&str>,
) -> [(Duration, Duration, f64); 3] {
    let mut spec =
        PluginSpec::new("echo", PluginKind::Provider, ComponentSource::File(fixture.to_path_buf()));
    if let Some(behaviour) = behaviour {
        spec.settings.insert("behaviour".into(), behaviour.into());
    }
    let start = |reuse_instances: bool| {
        let settings = RuntimeConfig {
            cache_dir: Some(cache.to_path_buf()),
            max_instances: 16,
            reuse_instances,
            ..RuntimeConfig::default()
        };
        runtime.block_on(PluginHost::start(vec![spec.clone()], &settings, None)).unwrap()
    };
    // Alternated, so that a change in the machine's load hits both.
    let (fresh_host, kept_host) = (start(false), start(true));
    let bare_settings = RuntimeConfig { max_instances: 16, ..RuntimeConfig::default() };
    let mut fresh = Vec::new();
    let mut kept = Vec::new();
    let mut bare = Vec::new();
    for _ in 0..3 {
        fresh.push(time_calls(runtime, &fresh_host));
        kept.push(time_calls(runtime, &kept_host));
        bare.push(time_bare(runtime, &bare_settings, fixture));
    }
    let median = |runs: &mut Vec<(Duration, Duration, f64)>| {
        runs.sort_by_key(|r| r.0);
        runs[runs.len() / 2]
    };
    [median(&mut fresh), median(&mut kept), median(&mut bare)]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let fixtures = PathBuf::from(env!("PARLANCE_FIXTURES_DIR"));
    let cache = std::env::temp_dir().join("parlance-bench-compile-cache");
    let (native_p50, native_p90) = measure(200, 5000, || {
        black_box(echo(black_box("a b c")));
    });
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mut trivial_fresh = Duration::MAX;
    for (label, file, behaviour) in [
        ("echo fixture (14 lowered imports)", "parlance_fixture_echo.wasm", None),
        ("hostile fixture's echo (91 lowered imports)", "parlance_fixture_hostile.wasm", Some("echo")),
    ] {
        let [
            (wasm_p50, wasm_p90, fresh_faults),
            (kept_p50, kept_p90, kept_faults),
            (bare_p50, bare_p90, bare_faults),
        ] = time_component(&runtime, &cache, &fixtures.join(file), behaviour);
        if behaviour.is_none() {
            trivial_fresh = wasm_p50;
        }
        println!(
            "{label}: plugin call overhead (the whole PluginHost::paraphrase: admission, instance, call, settlement), median of 3 runs of 200 rounds:"
        );
        println!(
            "  fresh instance    p50 {:>9.2} µs   p90 {:>9.2} µs   page faults per call {fresh_faults:.3}",
            us(wasm_p50),
            us(wasm_p90)
        );
        println!(
            "  kept instance     p50 {:>9.2} µs   p90 {:>9.2} µs   page faults per call {kept_faults:.3}   (reuse_instances, the same client's calls)",
            us(kept_p50),
            us(kept_p90)
        );
        println!(
            "  wasmtime alone    p50 {:>9.2} µs   p90 {:>9.2} µs   page faults per call {bare_faults:.3}   (a fresh instance made and dropped, no call)",
            us(bare_p50),
            us(bare_p90)
        );
        println!("  ratio fresh / kept (p50): {:.2}", us(wasm_p50) / us(kept_p50));
        println!(
            "  fresh - kept (p50, what a fresh instance adds in Parlance): {:.2} µs; wasmtime alone: {:.2} µs ({:.0} %)",
            us(wasm_p50) - us(kept_p50),
            us(bare_p50),
            100.0 * us(bare_p50) / (us(wasm_p50) - us(kept_p50))
        );
        println!("  ratio (fresh / native, p50): {:.0}x", us(wasm_p50) / us(native_p50));
    }
    println!("native            p50 {:>9.3} µs   p90 {:>9.3} µs", us(native_p50), us(native_p90));
    for (issue, target) in [(2, 25), (21, 10), (45, 10)] {
        let verdict = if trivial_fresh <= Duration::from_micros(target) { "met" } else { "NOT met" };
        println!(
            "issue {issue} target: fresh instance and trivial call (the echo fixture) p50 <= {target} µs -> {verdict}"
        );
    }
}
