//! `parlance plugins check`: tells a plugin author whether a component fits a world of the contract,
//! and if not, exactly what is missing.

use super::Runtime;
use super::api::PluginKind;
use super::bindings::{self, Bound, WitVersion};
use wasmtime::component::types::ComponentItem;

/// The verdict on one component.
#[derive(Debug, serde::Serialize)]
pub struct CheckReport {
    pub digest: String,
    /// Worlds the component fits, as `parlance:plugin/<world>@<version>`.
    pub fits: Vec<String>,
    /// What stands between the component and each world it tried to implement (or, when it exports
    /// nothing of the contract, what it would need).
    pub problems: Vec<String>,
    /// Optional interfaces the component also exports, such as the health `probe` (0.1.1).
    pub optional: Vec<String>,
    pub imports: Vec<String>,
    pub exports: Vec<String>,
}

impl CheckReport {
    pub fn ok(&self) -> bool {
        !self.fits.is_empty() && self.problems.is_empty()
    }
}

pub fn check(runtime: &Runtime, bytes: &[u8]) -> CheckReport {
    let digest = super::compile_cache::digest(bytes);
    let mut report = CheckReport {
        digest,
        fits: vec![],
        problems: vec![],
        optional: vec![],
        imports: vec![],
        exports: vec![],
    };
    if bytes.starts_with(b"\0asm\x01\0\0\0") {
        report.problems.push(
            "this is a core WebAssembly module, not a component: build with `--target wasm32-wasip2` \
             (Rust), componentize-py (Python) or componentize-js (JavaScript)"
                .into(),
        );
        return report;
    }
    let component = match runtime.compile(bytes, None) {
        Ok((component, _, _)) => component,
        Err(e) => {
            report.problems.push(format!("not a valid WebAssembly component: {e:#}"));
            return report;
        }
    };
    let engine = runtime.engine();
    let ty = component.component_type();
    report.imports = ty.imports(engine).map(|(name, _)| name.to_owned()).collect();
    report.exports = ty.exports(engine).map(|(name, item)| describe(name, &item.ty)).collect();

    let worlds = bindings::exported_worlds(&component);
    if worlds.is_empty() {
        let supported = bindings::SUPPORTED.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        report.problems.push(format!(
            "it exports none of parlance:plugin/provider, parlance:plugin/chat-model or \
             parlance:plugin/metric (supported versions: {supported}); a plugin must export exactly one"
        ));
        for kind in PluginKind::ALL {
            report.problems.push(format!(
                "to be a {kind} (world {}), it must export {}@{supported} with the functions {}",
                kind.world(),
                kind.interface(),
                kind.functions().join(", ")
            ));
        }
    }
    if let Err(e) = runtime.linker().instantiate_pre(&component) {
        report.problems.push(format!("an import cannot be satisfied by the host: {e:#}"));
        return report;
    }
    for (kind, version) in worlds {
        match Bound::bind(runtime.linker(), &component, kind, version) {
            Ok(bound) => {
                report.fits.push(world_name(kind, version));
                if bound.has_probe() {
                    report.optional.push(format!(
                        "parlance:plugin/probe (the health probe; world parlance:plugin/probed-{}@{version})",
                        kind.world()
                    ));
                }
            }
            Err(e) => report.problems.push(format!("{}: {e:#}", world_name(kind, version))),
        }
    }
    report
}

fn world_name(kind: PluginKind, version: WitVersion) -> String {
    format!("parlance:plugin/{}@{version}", kind.world())
}

fn describe(name: &str, item: &ComponentItem) -> String {
    let what = match item {
        ComponentItem::ComponentFunc(_) => "function",
        ComponentItem::CoreFunc(_) => "core function",
        ComponentItem::Module(_) => "module",
        ComponentItem::Component(_) => "component",
        ComponentItem::ComponentInstance(_) => "instance",
        ComponentItem::Type(_) => "type",
        ComponentItem::Resource(_) => "resource",
    };
    format!("{name} ({what})")
}
