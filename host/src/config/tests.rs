use super::*;
use crate::plugins::spec::SecretSource;
use std::io::Write;

fn write(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn home_without_keys() -> Env {
    // A HOME with no ~/.api-* files, so that the machine's own key files cannot leak into tests.
    Env::empty().with("HOME", "/nonexistent-home")
}

#[test]
fn defaults_follow_the_seeds() {
    let c = Config::from_env(None, &home_without_keys()).unwrap();
    assert_eq!(c.server.api_port, 8000);
    assert_eq!(c.server.chat_port, 5000);
    assert_eq!(c.server.host.to_string(), "0.0.0.0");
    assert!(!c.server.debug);
    assert_eq!(c.paraphrase.cache.kind, CacheKind::Redis { url: "redis://localhost:6379/0".into() });
    assert_eq!(c.paraphrase.cache.ttl, Duration::from_secs(3600));
    assert_eq!(c.paraphrase.rate_limit_per_minute, 60);
    assert_eq!((c.paraphrase.batch_max_size, c.paraphrase.batch_max_workers), (10, 4));
    assert_eq!(c.chat.database_file, PathBuf::from("dialogs.db"));
    assert_eq!(c.chat.default_genre, "Romance");
    assert_eq!(c.log_level, "INFO");
    assert_eq!(c.paraphrase.default_provider, "offline");
    let form = c.plugin("form").unwrap();
    assert_eq!(form.settings["model_url"], "http://localhost:80/path/");
    assert_eq!(form.allowed_hosts[0].to_string(), "http://localhost:80");
}

#[test]
fn model_url_moves_the_form_model_and_its_allow_list() {
    let f = write("[[plugin]]\nid = \"form\"\nconfig = { model_url = \"http://file:1/\" }\n");
    let env = home_without_keys().with("MODEL_URL", "http://127.0.0.1:8081/generate");
    let c = Config::from_env(Some(f.path()), &env).unwrap();
    let form = c.plugin("form").unwrap();
    assert_eq!(form.settings["model_url"], "http://127.0.0.1:8081/generate");
    assert_eq!(
        form.allowed_hosts.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["http://127.0.0.1:8081"]
    );
}

#[test]
fn a_provider_key_makes_openrouter_the_default() {
    let env = home_without_keys().with("PROVIDER_API_KEY", "sk-test");
    let c = Config::from_env(None, &env).unwrap();
    assert_eq!(c.paraphrase.default_provider, "openrouter");
    let p = c.plugin("openrouter").unwrap();
    assert_eq!(p.settings["api_key"], "sk-test");
    assert_eq!(p.visible_settings()["api_key"], "(secret)");
    assert_eq!(p.allowed_hosts[0].to_string(), "https://openrouter.ai:443");
}

#[test]
fn environment_overrides_the_file() {
    let f = write("[server]\napi_port = 9000\n[cache]\ntype = \"memory\"\n");
    let env = home_without_keys()
        .with("API_PORT", "9100")
        .with("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", "http://127.0.0.1:7000/v1");
    let c = Config::from_env(Some(f.path()), &env).unwrap();
    assert_eq!(c.server.api_port, 9100);
    assert_eq!(c.paraphrase.cache.kind, CacheKind::Memory);
    let p = c.plugin("openrouter").unwrap();
    assert_eq!(p.settings["base_url"], "http://127.0.0.1:7000/v1");
    assert_eq!(
        p.allowed_hosts.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["http://127.0.0.1:7000"]
    );
}

#[test]
fn every_problem_is_reported_at_once_with_file_and_line() {
    let f = write(
        "[server]\napi_port = \"eighty\"\ncolour = 1\n\n[cache]\nttl_secs = -5\n\n[[plugin]]\nid = \"x\"\nkind = \"gadget\"\n",
    );
    let err =
        Config::from_env(Some(f.path()), &home_without_keys().with("BATCH_MAX_SIZE", "zero")).unwrap_err();
    let text = err.to_string();
    let file = f.path().display().to_string();
    assert!(text.contains(&format!("{file}:2: server.api_port")), "{text}");
    assert!(text.contains(&format!("{file}:3: server.colour: unknown key")), "{text}");
    assert!(text.contains(&format!("{file}:6: cache.ttl_secs")), "{text}");
    assert!(text.contains("plugin[0].kind"), "{text}");
    assert!(text.contains("BATCH_MAX_SIZE"), "{text}");
    assert!(err.problems.len() >= 5, "{text}");
}

#[test]
fn plugin_tables_add_amend_and_remove() {
    let f = write(
        r#"
[[plugin]]
id = "local-llm"
kind = "provider"
component = "builtin:openai"
allowed_hosts = ["http://127.0.0.1:11434"]
config = { base_url = "http://127.0.0.1:11434/v1", model = "llama3", temperature = 0.2 }
secrets = { api_key = { env = "LOCAL_KEY" } }
limits = { timeout_ms = 5000, memory_mb = 32 }

[[plugin]]
id = "openrouter"
config = { model = "other/model" }

[[plugin]]
id = "bleu"
enabled = false
"#,
    );
    let env = home_without_keys().with("LOCAL_KEY", "k");
    let c = Config::from_env(Some(f.path()), &env).unwrap();
    let p = c.plugin("local-llm").unwrap();
    assert_eq!(p.kind, PluginKind::Provider);
    assert_eq!(p.settings["temperature"], "0.2");
    assert_eq!(p.settings["api_key"], "k");
    assert_eq!(p.limits.timeout, Duration::from_millis(5000));
    assert_eq!(p.limits.memory_bytes, 32 << 20);
    let o = c.plugin("openrouter").unwrap();
    assert_eq!(o.settings["model"], "other/model");
    assert_eq!(o.settings["base_url"], defaults::OPENROUTER_BASE_URL);
    assert!(c.plugin("bleu").is_none());
}

#[test]
fn key_files_feed_secrets() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join(".api-openrouter"), "\n  sk-from-file \n").unwrap();
    let env = Env::empty().with("HOME", home.path().to_str().unwrap());
    let source = SecretSource {
        env: Some("PROVIDER_API_KEY".into()),
        file: Some(format!("{}/.api-openrouter", home.path().display())),
    };
    assert_eq!(plugins::resolve_secret(&source, &env).as_deref(), Some("sk-from-file"));
    let env = env.with("PROVIDER_API_KEY", "sk-env");
    assert_eq!(plugins::resolve_secret(&source, &env).as_deref(), Some("sk-env"));
}

#[test]
fn unknown_default_provider_is_named() {
    let f = write("[paraphrase]\ndefault_provider = \"nope\"\n");
    let err = Config::from_env(Some(f.path()), &home_without_keys()).unwrap_err();
    assert!(
        err.to_string().contains("`nope`, which is not configured (known: gemini, offline, openrouter)"),
        "{err}"
    );
}
