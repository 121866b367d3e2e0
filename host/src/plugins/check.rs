//! `parlance plugins check`: tells a plugin author whether a component fits a world of the contract,
//! and if not, exactly what is missing.

use super::api::PluginKind;
use super::bindings::{self, Bound, WitVersion};
use super::engine::Runtime;
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
    if let Some(what) = not_a_component(bytes) {
        report.problems.push(what);
        return report;
    }
    let component = match runtime.compile(|| std::borrow::Cow::Borrowed(bytes), None, || {}) {
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

/// What a file is when it is plainly not a component, said for a person: not WebAssembly at all (and
/// how it starts), or a core module. `None` when it has a component's preamble, which the compiler
/// then checks.
pub fn not_a_component(bytes: &[u8]) -> Option<String> {
    const MAGIC: &[u8] = b"\0asm";
    const CORE_MODULE: &[u8] = b"\0asm\x01\0\0\0";
    if bytes.starts_with(CORE_MODULE) {
        return Some(
            "this is a core WebAssembly module, not a component: build with `--target wasm32-wasip2` \
             (Rust), componentize-py (Python) or componentize-js (JavaScript)"
                .into(),
        );
    }
    if bytes.starts_with(MAGIC) {
        return None;
    }
    if bytes.is_empty() {
        return Some("not a WebAssembly component: the file is empty".into());
    }
    let start = &bytes[..bytes.len().min(16)];
    let shown = match std::str::from_utf8(start) {
        Ok(text) if text.chars().all(|c| c == ' ' || c.is_ascii_graphic()) => format!("the text {text:?}"),
        _ => start.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" "),
    };
    Some(format!(
        "not a WebAssembly component: the file starts with {shown}, where a component starts with \
         00 61 73 6d (\"\\0asm\")"
    ))
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

#[cfg(test)]
mod tests {
    use super::not_a_component;

    #[test]
    fn a_file_that_is_not_a_component_is_described_in_words() {
        let text = not_a_component(b"definitely not wasm").unwrap();
        assert!(
            text.starts_with(
                "not a WebAssembly component: the file starts with the text \"definitely not w\""
            ),
            "{text}"
        );
        let elf = not_a_component(b"\x7fELF\x02\x01\x01\0").unwrap();
        assert!(elf.contains("starts with 7f 45 4c 46 02 01 01 00,"), "{elf}");
        assert!(not_a_component(b"").unwrap().contains("the file is empty"));
        assert!(
            not_a_component(b"\0asm\x01\0\0\0").unwrap().contains("core WebAssembly module, not a component")
        );
        assert_eq!(not_a_component(b"\0asm\x0d\0\x01\0"), None);
        for message in [text, elf] {
            assert!(!message.contains('['), "no debug byte arrays: {message}");
        }
    }
}
